/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fuzz.h - helpers of the host fuzz targets (fuzz_cli.c).
 *
 * Copyright (C) 2026 The gputbs developers
 */
#ifndef _GPUTBS_FUZZ_H
#define _GPUTBS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int fuzz_file(const uint8_t *data, size_t size, char *path, size_t len);

#endif /* _GPUTBS_FUZZ_H */
