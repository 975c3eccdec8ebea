"""many_regions.py N [R]: a C program with N distinct 2-thread parallel regions, each run R times (default 1)."""
import sys

n = int(sys.argv[1])
reps = int(sys.argv[2]) if len(sys.argv) > 2 else 1
print("#include <stdio.h>")
print("int main(void)\n{\n    long s = 0;")
print("    for (int rep = 0; rep < %d; rep++) {" % reps)
for i in range(n):
    print("#pragma omp parallel num_threads(2) reduction(+ : s)\n    s += %d;" % i)
print("    }")
print('    printf("%ld\\n", s);\n    return 0;\n}')
