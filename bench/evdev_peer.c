/* The least a reader of an evdev node can do, as bench/pad-power.sh's peer:
 * open the node, read whatever the kernel holds each time it wakes (one
 * read(2) per wake-up, no parsing beyond counting SYN_REPORTs) until
 * REPORTS reports or the end of the node, then print its own CPU per report
 * and voluntary context switches per second as one JSON object.
 *
 *   evdev_peer NODE REPORTS
 */
#include <fcntl.h>
#include <linux/input.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

static double seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec + now.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: evdev_peer NODE REPORTS\n");
        return 2;
    }
    long wanted = atol(argv[2]), reports = 0;
    int fd = open(argv[1], O_RDONLY | O_NOCTTY);
    if (fd < 0) {
        perror(argv[1]);
        return 1;
    }
    struct input_event events[64];
    double start = 0;
    while (reports < wanted) {
        ssize_t got = read(fd, events, sizeof events);
        if (got <= 0) break;
        for (size_t i = 0; i < (size_t)got / sizeof events[0]; i++) {
            if (events[i].type == EV_SYN && events[i].code == SYN_REPORT) {
                if (reports++ == 0) start = seconds();
            }
        }
    }
    double elapsed = seconds() - start;
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    double cpu = usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
    printf("{\"reports\": %ld, \"cpu_us_per_sample\": %.1f, \"wakeups_per_s\": %.1f}\n", reports,
           reports ? cpu * 1e6 / reports : 0.0, elapsed > 0 ? usage.ru_nvcsw / elapsed : 0.0);
    return reports > 0 ? 0 : 1;
}
