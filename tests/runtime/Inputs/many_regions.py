"""many_regions.py N: a C program with N distinct 2-thread parallel regions, each run once."""
import sys

n = int(sys.argv[1])
print("#include <stdio.h>")
print("int main(void)\n{\n    long s = 0;")
for i in range(n):
    print("#pragma omp parallel num_threads(2) reduction(+ : s)\n    s += %d;" % i)
print('    printf("%ld\\n", s);\n    return 0;\n}')
