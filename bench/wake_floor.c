/* What one wake-up costs on this machine before any work is done: a thread
 * that sleeps for MS milliseconds, N times, and reads its own CPU time
 * (/proc/thread-self/schedstat) before and after. HOW it sleeps: poll (the
 * default; poll(2) on an idle pipe, as tiltd's capture waits on its cancel
 * pipe), cond (pthread_cond_timedwait on CLOCK_MONOTONIC, a futex and no
 * descriptor) or nanosleep (clock_nanosleep, nothing to wake it early).
 * Prints one JSON line: the interval, how, the CPU per wake-up (µs) and per
 * second (% of a core). bench/wake-floor.sh runs it at the intervals tiltd
 * uses; docs/performance.md, "Power", compares tiltd's figures with it.
 *
 *   cc -O2 -Wall bench/wake_floor.c -o wake_floor -lpthread && ./wake_floor 16 200 [poll|cond|nanosleep]
 */
#include <poll.h>
#include <pthread.h>
#include <string.h>
#include <time.h>
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
    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: wake_floor MS COUNT [poll|cond|nanosleep]\n");
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
    const char *how = argc == 4 ? argv[3] : "poll";
    enum { by_poll, by_cond, by_nanosleep } by;
    if (strcmp(how, "poll") == 0) by = by_poll;
    else if (strcmp(how, "cond") == 0) by = by_cond;
    else if (strcmp(how, "nanosleep") == 0) by = by_nanosleep;
    else {
        fprintf(stderr, "wake_floor: HOW is poll, cond or nanosleep, not %s\n", how);
        return 2;
    }
    struct pollfd idle = { .fd = ends[0], .events = POLLIN };
    pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
    pthread_condattr_t attributes;
    pthread_cond_t condition;
    pthread_condattr_init(&attributes);
    pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
    pthread_cond_init(&condition, &attributes);
    struct timespec due;
    clock_gettime(CLOCK_MONOTONIC, &due);
    long long before = cpu_nanoseconds();
    for (int i = 0; i < count; i++) {
        due.tv_nsec += ms * 1000000L;
        while (due.tv_nsec >= 1000000000L) { due.tv_nsec -= 1000000000L; due.tv_sec++; }
        switch (by) {
        case by_poll:
            poll(&idle, 1, ms);
            break;
        case by_cond:
            pthread_mutex_lock(&mutex);
            pthread_cond_timedwait(&condition, &mutex, &due);
            pthread_mutex_unlock(&mutex);
            break;
        case by_nanosleep:
            clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &due, NULL);
            break;
        }
    }
    long long spent = cpu_nanoseconds() - before;
    printf("{\"interval_ms\": %d, \"how\": \"%s\", \"wakeups\": %d, \"cpu_us_per_wake\": %.1f, \"cpu_percent\": %.4f}\n",
           ms, how, count, spent / 1e3 / count, spent / 1e7 / ((double)count * ms / 1e3));
    return 0;
}
