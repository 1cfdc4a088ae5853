// Four identical Fenwick trees of 2^20 heights in one process, timed in turn (so that every
// tree sees the same spells of the machine): the resize-storm access of
// offsets-storm-first-row at 1,000,000 rows (row 0 resized, a prefix sum near the middle, a
// descent to the middle offset). Prints each tree's median ns per operation.
// Build and run: cc -O2 -o fenwick-placement fenwick-placement.c && taskset -c 0 ./fenwick-placement
// With the argument h (2026-11-28-process-midmean.md), each tree is 2 MB aligned and advised to
// transparent huge pages (this machine: /sys/kernel/mm/transparent_hugepage/enabled = madvise).
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>

#define N (1L << 20)
#define TREES 4
#define TURNS 300
#define OPERATIONS 200

static uint64_t now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static double storm(double *tree, int operations, double total) {
    double checksum = 0;
    for (int r = 0; r < operations; r++) {
        for (long i = 1; i <= N; i += i & -i) tree[i - 1] += (r & 1) ? 1.0 : -1.0;  // row 0 resized
        double sum = 0;
        for (long i = N / 2 + r % 7; i > 0; i -= i & -i) sum += tree[i - 1];      // offset of a middle row
        long position = 0;
        double target = total / 2;
        for (long step = N / 2; step; step >>= 1) {                               // row at the middle offset
            if (position + step <= N && tree[position + step - 1] < target) {
                position += step;
                target -= tree[position - 1];
            }
        }
        checksum += sum + (double)position;
    }
    return checksum;
}

static int ascending(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
    int huge = argc > 1 && argv[1][0] == 'h';
    double *trees[TREES];
    for (int k = 0; k < TREES; k++) {
        // As a Swift array: a 32-byte header before the elements.
        char *block;
        if (huge) {
            // 2 MB aligned and advised: transparent huge pages back it, so the cache sets its
            // lines fall in follow from the virtual address alone.
            size_t bytes = ((N * sizeof(double) + 32) + (2u << 20) - 1) & ~(size_t)((2u << 20) - 1);
            if (posix_memalign((void **)&block, 2u << 20, bytes)) return 1;
            madvise(block, bytes, MADV_HUGEPAGE);
        } else {
            block = malloc(N * sizeof(double) + 32);
        }
        trees[k] = (double *)(block + 32);
        for (long i = 1; i <= N; i++) trees[k][i - 1] = 44.0;
        for (long i = 1; i <= N; i++) {
            long parent = i + (i & -i);
            if (parent <= N) trees[k][parent - 1] += trees[k][i - 1];
        }
    }
    static uint64_t samples[TREES][TURNS];
    double checksum = 0;
    for (int turn = 0; turn < TURNS; turn++) {
        for (int k = 0; k < TREES; k++) {
            uint64_t start = now();
            checksum += storm(trees[k], OPERATIONS, 44.0 * N);
            samples[k][turn] = now() - start;
        }
    }
    for (int k = 0; k < TREES; k++) {
        qsort(samples[k], TURNS, sizeof(uint64_t), ascending);
        printf("%s%.1f", k ? " " : "", samples[k][TURNS / 2] / (double)OPERATIONS);
    }
    printf("  (checksum %g)\n", checksum);
    return 0;
}
