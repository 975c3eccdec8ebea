/* mangled-c-name.c: a C program (no libstdc++) whose region's function is named as a mangled C++ name. */
static volatile int swept;

__attribute__((noinline)) void _ZN5hydro5sweepEv(void)
{
#pragma omp parallel num_threads(2)
    ;
    swept = 1; /* the fork is not a tail call: the region's code address is in this function */
}

int main(void)
{
    _ZN5hydro5sweepEv();
    return 0;
}
