// SPDX-License-Identifier: GPL-2.0
/*
 * vm-exit - power off a QEMU guest with a given exit status.
 *
 * Runs inside the tools/vm/gputbs-vm guest (as root, PID 1's child).  QEMU is
 * started with "-device isa-debug-exit,iobase=0xf4,iosize=0x04"; writing a
 * value V to that port makes QEMU exit immediately with status (V << 1) | 1,
 * so the host sees an odd exit code and decodes V as (code >> 1).
 *
 * Usage: vm-exit STATUS        (STATUS is 0..255)
 * Returns 1 if the port cannot be accessed (not root, no device, ...);
 * the caller then falls back to "reboot -f" (QEMU runs with -no-reboot).
 *
 * Built by tools/vm/gputbs-vm with: gcc -static -O2 -o build/vm/vm-exit tools/vm/vm-exit.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/io.h>
#include <unistd.h>

#define DEBUG_EXIT_PORT 0xf4

int main(int argc, char **argv)
{
	unsigned long status;
	char *end;

	if (argc != 2) {
		fprintf(stderr, "usage: %s STATUS\n", argv[0]);
		return 2;
	}
	status = strtoul(argv[1], &end, 0);
	if (*argv[1] == '\0' || *end != '\0' || status > 255) {
		fprintf(stderr, "vm-exit: bad status '%s'\n", argv[1]);
		return 2;
	}
	if (ioperm(DEBUG_EXIT_PORT, 4, 1) != 0) {
		perror("vm-exit: ioperm");
		return 1;
	}
	fflush(NULL);
	sync();
	outb((unsigned char)status, DEBUG_EXIT_PORT);
	/* Still here: there is no isa-debug-exit device. */
	fprintf(stderr, "vm-exit: isa-debug-exit did not stop the VM\n");
	return 1;
}
