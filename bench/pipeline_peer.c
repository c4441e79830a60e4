/* Plain C peer of PipelineBench (SPEC §8's "plain C -O2" reference): the
 * same synthetic 100 Hz readings, then per sample a one-pole low-pass filter
 * on the vector (alpha from the interval, cached), roll = atan2(x, z),
 * pitch = asin(-y/|v|) with 2π unwrapping, the change gate (|Δroll| ≥ t or
 * |Δpitch| ≥ t against the last accepted) and the two shines. It does less
 * than tiltd (no gravity weighting, no orientation classifier, no branch
 * choice over the top), so the ratio favours C.
 *
 * Build: cc -O2 -o bench/.build/pipeline_peer_c bench/pipeline_peer.c -lm
 * Usage: pipeline_peer_c [samples] [runs]
 * Prints `RESULT c_pipeline <median samples/s>`.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef struct { int64_t t; double x, y, z; } reading;

static uint64_t state = 0x9E3779B97F4A7C15ull;
static double noise(void) {
    state ^= state >> 12; state ^= state << 25; state ^= state >> 27;
    uint64_t bits = (state * 0x2545F4914F6CDD1Dull) >> 11;
    return (double)bits / (double)(1ull << 53) * 2 - 1;
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double wrap(double a) { return a - 2 * M_PI * nearbyint(a / (2 * M_PI)); }

static long run(const reading *r, long n, double *checksum) {
    const double tau = 1 / (2 * M_PI * 5), threshold = 0.0022;
    double fx = r[0].x, fy = r[0].y, fz = r[0].z;
    int64_t last_t = r[0].t, cached_dt = -1;
    double alpha = 0, roll = 0, pitch = 0, acc_roll = 0, acc_pitch = 0, sum = 0;
    long passed = 0;
    for (long i = 0; i < n; i++) {
        if (i > 0) {
            int64_t dt = r[i].t - last_t;
            if (dt != cached_dt) { cached_dt = dt; alpha = 1 - exp(-dt * 1e-9 / tau); }
            fx += alpha * (r[i].x - fx); fy += alpha * (r[i].y - fy); fz += alpha * (r[i].z - fz);
            last_t = r[i].t;
        }
        double len = sqrt(fx * fx + fy * fy + fz * fz);
        double p = asin(fmax(-1, fmin(1, -fy / len)));
        double ro = atan2(fx, fz);
        if (i > 0) { ro = roll + wrap(ro - roll); }
        roll = ro; pitch = p;
        if (passed == 0 || fabs(roll - acc_roll) >= threshold || fabs(pitch - acc_pitch) >= threshold) {
            acc_roll = roll; acc_pitch = pitch; passed++;
            double rot1 = -roll + pitch, op2 = fmin(fmax(1 - roll, 0), 1);
            double rot2 = -roll - pitch, op1 = fmin(fmax(1 + roll, 0), 1);
            sum += rot1 + op2 + 0 * (rot2 + op1);
        }
    }
    *checksum = sum;
    return passed;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 4000000;
    int runs = argc > 2 ? atoi(argv[2]) : 7;
    if (runs < 1) runs = 1;
    reading *r = malloc(sizeof(reading) * n);
    for (long i = 0; i < n; i++) {
        double t = i * 0.01;
        double roll = 0.6 * sin(2 * M_PI * t / 7.3) + 0.2 * sin(2 * M_PI * t / 1.1);
        double pitch = 0.5 + 0.4 * sin(2 * M_PI * t / 5.9);
        r[i].t = i * 10000000LL;
        r[i].x = 9.81 * cos(pitch) * sin(roll) + noise() * 0.05;
        r[i].y = -9.81 * sin(pitch) + noise() * 0.05;
        r[i].z = 9.81 * cos(pitch) * cos(roll) + noise() * 0.05;
        double m = fmod(t, 60);
        if (m >= 30 && m < 30.5) { r[i].x += noise() * 15; r[i].y += noise() * 15; r[i].z += noise() * 15; }
    }
    double rates[64], checksum = 0;
    long passed = 0;
    for (int k = 0; k < runs && k < 64; k++) {
        double start = now();
        passed = run(r, n, &checksum);
        rates[k] = n / (now() - start);
    }
    qsort(rates, runs, sizeof(double), compare);
    double median = runs % 2 ? rates[runs / 2] : (rates[runs / 2 - 1] + rates[runs / 2]) / 2;
    printf("pipeline_peer.c: %ld samples, median of %d runs: %.2f M samples/s (%ld states passed, checksum %.3f)\n",
           n, runs, median / 1e6, passed, checksum);
    printf("RESULT c_pipeline %f\n", median);
    free(r);
    return 0;
}
