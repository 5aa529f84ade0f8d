/* cuzk-bench: the benchmarks of the cuzk library (bench/cuzk-bench.c lists
 * them). */
#include "bench.h"

int main(int argc, char **argv) { return cz_cli_main(&cz_bench, argc, argv); }
