/* What one wake-up costs on this machine before any work is done: a thread
 * that sleeps in poll(2) on an idle pipe for MS milliseconds, N times, and
 * reads its own CPU time (/proc/thread-self/schedstat) before and after.
 * Prints one JSON line: the interval, the CPU per wake-up (µs) and per
 * second (% of a core). bench/wake-floor.sh runs it at the intervals tiltd
 * uses; docs/performance.md, "Power", compares tiltd's figures with it.
 *
 *   cc -O2 -Wall bench/wake_floor.c -o wake_floor && ./wake_floor 16 200
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static long long cpu_nanoseconds(void) {
    FILE *file = fopen("/proc/thread-self/schedstat", "r");
    long long ns = -1;
    if (!file || fscanf(file, "%lld", &ns) != 1) {
        perror("wake_floor: /proc/thread-self/schedstat");
        exit(1);
    }
    fclose(file);
    return ns;
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: wake_floor MS COUNT\n");
        return 2;
    }
    int ms = atoi(argv[1]), count = atoi(argv[2]);
    if (ms <= 0 || count <= 0) {
        fprintf(stderr, "wake_floor: MS and COUNT must be positive\n");
        return 2;
    }
    int ends[2];
    if (pipe(ends) != 0) {
        perror("wake_floor: pipe");
        return 1;
    }
    struct pollfd idle = { .fd = ends[0], .events = POLLIN };
    long long before = cpu_nanoseconds();
    for (int i = 0; i < count; i++) poll(&idle, 1, ms);
    long long spent = cpu_nanoseconds() - before;
    printf("{\"interval_ms\": %d, \"wakeups\": %d, \"cpu_us_per_wake\": %.1f, \"cpu_percent\": %.4f}\n",
           ms, count, spent / 1e3 / count, spent / 1e7 / ((double)count * ms / 1e3));
    return 0;
}
