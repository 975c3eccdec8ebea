/* lulesh-names.cpp: C++ regions named as LULESH's are: a static function with a long signature, a member function
 * of a class in a namespace, a function template; none inlined. */
#include <cstdio>

struct Domain {
    double dt[64];
};

static __attribute__((noinline)) void CalcCourantConstraintForElems(Domain &domain, int length, int *regElemlist, double qqc, double &dtcourant)
{
#pragma omp parallel for num_threads(2)
    for (int i = 0; i < length; i++)
        domain.dt[i] = qqc * regElemlist[i];
    dtcourant = domain.dt[0];
}

namespace hydro {
struct Solver {
    __attribute__((noinline)) double sum(const double *v, int n)
    {
        double s = 0;
#pragma omp parallel for num_threads(2) reduction(+ : s)
        for (int i = 0; i < n; i++)
            s += v[i];
        return s;
    }
};
}

template <typename T> __attribute__((noinline)) T scaled(T x)
{
    T r = 0;
#pragma omp parallel num_threads(2) reduction(+ : r)
    r += x;
    return r;
}

int main()
{
    Domain d;
    int list[64];
    for (int i = 0; i < 64; i++)
        list[i] = i;
    double dtc = 0;
    CalcCourantConstraintForElems(d, 64, list, 0.5, dtc);
    hydro::Solver s;
    std::printf("%g %g %d\n", dtc, s.sum(d.dt, 64), scaled<int>(3));
    return 0;
}
