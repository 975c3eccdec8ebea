// A region inside a C++ function whose demangled name is over 200 characters (templates of long namespaces, as
// in real mini-apps): the verbose log names it whole.
#include <cstdio>

namespace hydrodynamics_mini_application_with_a_long_namespace {
struct LagrangeLeapFrogStateOfTheWholeMesh {
    double value;
};

template <typename ElementState> __attribute__((noinline))
double CalcMonotonicQGradientsForElementsOfTheRegion(const ElementState *state, int count,
                                                     const LagrangeLeapFrogStateOfTheWholeMesh &mesh)
{
    double sum = 0;
#pragma omp parallel for reduction(+ : sum)
    for (int i = 0; i < count; i++)
        sum += state[i].value * mesh.value;
    return sum;
}
} // namespace hydrodynamics_mini_application_with_a_long_namespace

int main()
{
    using namespace hydrodynamics_mini_application_with_a_long_namespace;
    static LagrangeLeapFrogStateOfTheWholeMesh cells[1000];
    LagrangeLeapFrogStateOfTheWholeMesh mesh = {2.0};
    for (int i = 0; i < 1000; i++)
        cells[i].value = i;
    double s = 0;
    for (int k = 0; k < 8; k++)
        s += CalcMonotonicQGradientsForElementsOfTheRegion(cells, 1000, mesh);
    std::printf("%.0f\n", s);
    return 0;
}
