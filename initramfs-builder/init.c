// SPDX-License-Identifier: GPL-2.0
/*
 * init.c - PID 1 of the test guest: mount what the leap test needs, run it,
 * report how it ended, and leave (reboot with QEMU's -no-reboot ends the guest).
 *
 * The initramfs holds no device nodes (it is built without root), so init
 * mounts devtmpfs and opens /dev/console itself.  The words after "--" on
 * the kernel command line (the kernel hands them to init) go on to
 * /leaptest: scripts/kselftest.sh runs a kselftest there with its options.
 * A kernel that predates "--" (3.10 does) hands on the "--" itself, which
 * would end the test's options before they begin: it is dropped.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static void console(void)
{
	int fd;

	mkdir("/dev", 0755);
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	fd = open("/dev/console", O_RDWR);
	if (fd < 0)
		return;
	for (int i = 0; i < 3; i++)
		dup2(fd, i);
	if (fd > 2)
		close(fd);
}

/* "leapinit.hang=1" makes a guest that hangs: the harness's TIMEOUT self-test. */
static int hang_requested(void)
{
	char buf[2048] = "";
	FILE *f = fopen("/proc/cmdline", "r");

	if (f) {
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = '\0';
		fclose(f);
	}
	return strstr(buf, "leapinit.hang=1") != NULL;
}

int main(int argc, char **argv)
{
	int status = 0;
	pid_t pid;

	console();
	mkdir("/proc", 0555);
	mount("proc", "/proc", "proc", 0, NULL);
	if (hang_requested()) {
		printf("leapinit: hanging on purpose (leapinit.hang=1, a harness self-test)\n");
		fflush(stdout);
		for (;;)
			pause();
	}
	printf("leapinit: running /leaptest%s\n", argc > 1 ? " with init's arguments" : "");
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		if (argc > 1 && strcmp(argv[1], "--") == 0)
			argv++;
		argv[0] = "/leaptest";
		execv(argv[0], argv);
		perror("leapinit: exec /leaptest");
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		printf("leapinit: cannot run /leaptest\n");
	else if (WIFEXITED(status))
		printf("leapinit: leaptest exit=%d\n", WEXITSTATUS(status));
	else
		printf("leapinit: leaptest killed by signal %d\n", WTERMSIG(status));
	fflush(stdout);
	sync();
	reboot(RB_AUTOBOOT);
	for (;;)
		pause();
}
