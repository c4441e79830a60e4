/*
 * The kernel's share of a DSU packet against a state line (issue 24): a
 * sender that does nothing but wait for the next tick and send 100 bytes,
 * to a receiver on another CPU, over a Unix stream (the state socket's
 * transport) and over loopback UDP from a connected socket (what tiltd's
 * DSU server does per subscriber). Prints the sender thread's CPU per send
 * and per tick, with the receiver waiting in poll() as clients do (each
 * send wakes it), and with a receiver that only drains every 100 ms (no
 * wake-up: the send path alone).
 *
 *   cc -O2 -pthread bench/loopback_floor.c -o /tmp/loopback_floor
 *   /tmp/loopback_floor [SENDS [RATE_HZ]]
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct pair { int sender, receiver; };

static int receiver_fd;
static int waits_in_poll;
static volatile int stopping;

static void pin(int cpu) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    pthread_setaffinity_np(pthread_self(), sizeof set, &set);
}

static double thread_cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void *receive(void *unused) {
    (void)unused;
    pin(0);
    char buffer[2048];
    while (!stopping) {
        if (waits_in_poll) {
            struct pollfd p = { receiver_fd, POLLIN, 0 };
            if (poll(&p, 1, 200) > 0) recv(receiver_fd, buffer, sizeof buffer, 0);
        } else {
            usleep(100000);
            while (recv(receiver_fd, buffer, sizeof buffer, MSG_DONTWAIT) > 0) {}
        }
    }
    return NULL;
}

static struct pair unix_stream(void) {
    int fds[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) { perror("socketpair"); exit(1); }
    return (struct pair){ fds[0], fds[1] };
}

static struct pair connected_udp(void) {
    struct sockaddr_in loopback = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    struct sockaddr_in bound = loopback;
    socklen_t length = sizeof bound;
    int receiver = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    int sender = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (receiver < 0 || sender < 0 || bind(receiver, (struct sockaddr *)&loopback, sizeof loopback) != 0
        || getsockname(receiver, (struct sockaddr *)&bound, &length) != 0
        || connect(sender, (struct sockaddr *)&bound, sizeof bound) != 0) { perror("udp"); exit(1); }
    return (struct pair){ sender, receiver };
}

/* Sends `count` 100-byte messages at `rate` Hz; gives the CPU µs per send and per tick. */
static void measure(const char *name, struct pair pair, int poll_waits, int count, int rate, double *per_send,
                    double *per_tick) {
    receiver_fd = pair.receiver;
    waits_in_poll = poll_waits;
    stopping = 0;
    pthread_t thread;
    pthread_create(&thread, NULL, receive, NULL);
    pin(1);
    char message[100] = { 0 };
    struct timespec tick;
    clock_gettime(CLOCK_MONOTONIC, &tick);
    double start = thread_cpu_seconds(), sending = 0;
    for (int i = 0; i < count; i++) {
        tick.tv_nsec += 1000000000L / rate;
        if (tick.tv_nsec >= 1000000000L) { tick.tv_sec++; tick.tv_nsec -= 1000000000L; }
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &tick, NULL);
        double before = thread_cpu_seconds();
        if (send(pair.sender, message, sizeof message, 0) != sizeof message) { perror("send"); exit(1); }
        sending += thread_cpu_seconds() - before;
    }
    double total = thread_cpu_seconds() - start;
    stopping = 1;
    pthread_join(thread, NULL);
    close(pair.sender);
    close(pair.receiver);
    *per_send = 1e6 * sending / count;
    *per_tick = 1e6 * total / count;
    printf("  %-34s %6.1f µs per send, %6.1f µs per tick\n", name, *per_send, *per_tick);
}

int main(int argc, char **argv) {
    int count = argc > 1 ? atoi(argv[1]) : 2000, rate = argc > 2 ? atoi(argv[2]) : 200;
    double unix_woken, udp_woken, unix_alone, udp_alone, unix_tick, udp_tick, unused;
    printf("sender CPU, %d sends of 100 bytes at %d Hz, sender on CPU 1, receiver on CPU 0\n", count, rate);
    measure("Unix stream, receiver in poll()", unix_stream(), 1, count, rate, &unix_woken, &unix_tick);
    measure("UDP connected, receiver in poll()", connected_udp(), 1, count, rate, &udp_woken, &udp_tick);
    measure("Unix stream, no wake-up", unix_stream(), 0, count, rate, &unix_alone, &unused);
    measure("UDP connected, no wake-up", connected_udp(), 0, count, rate, &udp_alone, &unused);
    printf("  UDP - Unix per send: %.1f µs with the wake-up, %.1f µs without\n",
           udp_woken - unix_woken, udp_alone - unix_alone);
    /* A program that did nothing but this: the lowest DSU / socket ratio of CPU per sample. */
    printf("  UDP / Unix per tick (receiver in poll): %.2f\n", udp_tick / unix_tick);
    return 0;
}
