/* The least a paced reader can do, as a peer for bench/power.sh: what any
 * program that wakes once per latency budget and sends each sample to one
 * socket client costs on this machine and fixture, before any of tiltd's
 * own work (no filter, no gate, no attitude, no event loop).
 *
 * Through libiio, as tiltd reads: the device's three accel channels and its
 * timestamp, a non-blocking buffer of CAPACITY scans; it listens on a Unix
 * socket, takes one client, then sleeps on an absolute CLOCK_MONOTONIC
 * schedule, one wake-up every BUDGET_MS, refills until EAGAIN (waiting in
 * poll(2) for the first scan when a wake-up finds none), and sends one line
 * per scan, {"t":seconds,"x":…,"y":…,"z":…}, all of a wake-up's lines in
 * one send(2). It exits after COUNT scans.
 *
 *   cc -O2 -Wall bench/paced_peer.c -o paced_peer -liio -lm
 *   umockdev-run --device … -s /dev/iio:device0=… -- \
 *       ./paced_peer iio:device0 /tmp/peer.sock 16 200 4000
 */
#include <errno.h>
#include <iio.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static void fail(const char *what, int error) {
    fprintf(stderr, "paced_peer: %s: %s\n", what, strerror(error));
    exit(1);
}

int main(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: paced_peer DEVICE SOCKET BUDGET_MS CAPACITY COUNT\n");
        return 2;
    }
    const char *device_name = argv[1], *socket_path = argv[2];
    long long budget_ns = atoll(argv[3]) * 1000000LL;
    int capacity = atoi(argv[4]);
    long count = atol(argv[5]);
    if (budget_ns <= 0 || capacity <= 0 || count <= 0) {
        fprintf(stderr, "paced_peer: BUDGET_MS, CAPACITY and COUNT must be positive\n");
        return 2;
    }

    struct iio_context *context = iio_create_default_context();
    if (!context) fail("iio_create_default_context", errno);
    struct iio_device *device = iio_context_find_device(context, device_name);
    if (!device) fail(device_name, ENODEV);
    static const char *names[] = {"accel_x", "accel_y", "accel_z", "timestamp"};
    const struct iio_channel *channels[4];
    for (int i = 0; i < 4; i++) {
        struct iio_channel *channel = iio_device_find_channel(device, names[i], false);
        if (!channel) fail(names[i], ENOENT);
        iio_channel_enable(channel);
        channels[i] = channel;
    }

    int listener = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_un address = {.sun_family = AF_UNIX};
    if (listener < 0 || strlen(socket_path) >= sizeof address.sun_path) fail(socket_path, EINVAL);
    strcpy(address.sun_path, socket_path);
    if (bind(listener, (struct sockaddr *)&address, sizeof address) || listen(listener, 1))
        fail(socket_path, errno);
    int client = accept(listener, NULL, NULL);
    if (client < 0) fail("accept", errno);

    struct iio_buffer *buffer = iio_device_create_buffer(device, capacity, false);
    if (!buffer) fail("iio_device_create_buffer", errno);
    int error = iio_buffer_set_blocking_mode(buffer, false);
    if (error) fail("iio_buffer_set_blocking_mode", -error);
    int descriptor = iio_buffer_get_poll_fd(buffer);
    if (descriptor < 0) fail("iio_buffer_get_poll_fd", -descriptor);

    size_t line_room = 96, room = line_room * (size_t)capacity;
    char *lines = malloc(room);
    if (!lines) fail("malloc", ENOMEM);
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    long sent = 0;
    while (sent < count) {
        next.tv_nsec += budget_ns;
        while (next.tv_nsec >= 1000000000L) { next.tv_nsec -= 1000000000L; next.tv_sec++; }
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR) {}
        size_t used = 0;
        long scans = 0;
        for (;;) {
            ssize_t got = iio_buffer_refill(buffer);
            if (got == -EAGAIN) {
                if (scans > 0) break;
                struct pollfd wait = {.fd = descriptor, .events = POLLIN};
                if (poll(&wait, 1, 5000) <= 0) fail("waiting for a scan", ETIMEDOUT);
                continue;
            }
            if (got < 0) fail("iio_buffer_refill", (int)-got);
            ptrdiff_t step = iio_buffer_step(buffer);
            uint8_t *first = iio_buffer_first(buffer, channels[0]), *end = iio_buffer_end(buffer);
            ptrdiff_t at[4];
            for (int i = 0; i < 4; i++) at[i] = (uint8_t *)iio_buffer_first(buffer, channels[i]) - first;
            for (uint8_t *scan = first; scan + step <= end; scan += step) {
                int32_t x, y, z;
                int64_t t;
                memcpy(&x, scan + at[0], 4);
                memcpy(&y, scan + at[1], 4);
                memcpy(&z, scan + at[2], 4);
                memcpy(&t, scan + at[3], 8);
                if (used + line_room > room) {  /* more than a wake-up's share: send what is here */
                    if (send(client, lines, used, MSG_NOSIGNAL) != (ssize_t)used) fail("send", errno);
                    used = 0;
                }
                used += (size_t)snprintf(lines + used, line_room, "{\"t\":%.9f,\"x\":%d,\"y\":%d,\"z\":%d}\n",
                                         (double)t * 1e-9, x, y, z);
                scans++;
            }
            if ((size_t)got < (size_t)capacity * (size_t)step) break;  /* the kernel may hold more */
        }
        if (used && send(client, lines, used, MSG_NOSIGNAL) != (ssize_t)used) fail("send", errno);
        sent += scans;
    }
    iio_buffer_destroy(buffer);
    iio_context_destroy(context);
    close(client);
    return 0;
}
