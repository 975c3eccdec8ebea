! omp_numa.f90: Fortran module omp_numa, bind(c) interfaces to the omp_numa_* API (documented in omp_numa.h).
!
! Pointers are type(c_ptr): pass c_loc(array) for arrays, and use
! c_f_pointer on what omp_numa_alloc returns. Sizes are bytes, integer(c_size_t).
! Errors follow omp_numa.h: -1 (or c_null_ptr, or a negative cost); errno is
! not visible from Fortran, so the return value is the test.
module omp_numa
  use, intrinsic :: iso_c_binding, only: c_int, c_size_t, c_double, c_ptr
  implicit none
  private
  public :: omp_numa_num_nodes, omp_numa_node_of_cpu, omp_numa_get_thread_node, &
            omp_numa_alloc, omp_numa_free, omp_numa_register, omp_numa_unregister, &
            omp_numa_attach, omp_numa_detach, omp_numa_migrate_on_next_touch, &
            omp_numa_migrate_to_node, omp_numa_nodes_of, omp_numa_cost_migrate, &
            omp_numa_cost_access, omp_numa_node_memory, omp_numa_update_hints

  ! omp_numa_policy_t
  integer(c_int), parameter, public :: OMP_NUMA_FIRST_TOUCH = 0
  integer(c_int), parameter, public :: OMP_NUMA_BIND = 1
  integer(c_int), parameter, public :: OMP_NUMA_INTERLEAVE = 2
  integer(c_int), parameter, public :: OMP_NUMA_NEXT_TOUCH = 3
  ! omp_numa_sync_t
  integer(c_int), parameter, public :: OMP_NUMA_NOW = 0
  integer(c_int), parameter, public :: OMP_NUMA_AT_BARRIER = 1

  interface
    integer(c_int) function omp_numa_num_nodes() bind(c, name='omp_numa_num_nodes')
      import :: c_int
    end function

    integer(c_int) function omp_numa_node_of_cpu(cpu) bind(c, name='omp_numa_node_of_cpu')
      import :: c_int
      integer(c_int), value :: cpu
    end function

    integer(c_int) function omp_numa_get_thread_node() bind(c, name='omp_numa_get_thread_node')
      import :: c_int
    end function

    type(c_ptr) function omp_numa_alloc(size, policy, node) bind(c, name='omp_numa_alloc')
      import :: c_ptr, c_size_t, c_int
      integer(c_size_t), value :: size
      integer(c_int), value :: policy, node
    end function

    subroutine omp_numa_free(ptr) bind(c, name='omp_numa_free')
      import :: c_ptr
      type(c_ptr), value :: ptr
    end subroutine

    integer(c_int) function omp_numa_register(ptr, size) bind(c, name='omp_numa_register')
      import :: c_ptr, c_size_t, c_int
      type(c_ptr), value :: ptr
      integer(c_size_t), value :: size
    end function

    integer(c_int) function omp_numa_unregister(ptr) bind(c, name='omp_numa_unregister')
      import :: c_ptr, c_int
      type(c_ptr), value :: ptr
    end function

    integer(c_int) function omp_numa_attach(ptr, size, thread_num) bind(c, name='omp_numa_attach')
      import :: c_ptr, c_size_t, c_int
      type(c_ptr), value :: ptr
      integer(c_size_t), value :: size
      integer(c_int), value :: thread_num
    end function

    integer(c_int) function omp_numa_detach(ptr) bind(c, name='omp_numa_detach')
      import :: c_ptr, c_int
      type(c_ptr), value :: ptr
    end function

    integer(c_int) function omp_numa_migrate_on_next_touch(ptr, size) &
        bind(c, name='omp_numa_migrate_on_next_touch')
      import :: c_ptr, c_size_t, c_int
      type(c_ptr), value :: ptr
      integer(c_size_t), value :: size
    end function

    integer(c_int) function omp_numa_migrate_to_node(ptr, size, node) &
        bind(c, name='omp_numa_migrate_to_node')
      import :: c_ptr, c_size_t, c_int
      type(c_ptr), value :: ptr
      integer(c_size_t), value :: size
      integer(c_int), value :: node
    end function

    ! pages_per_node: omp_numa_num_nodes() elements
    integer(c_int) function omp_numa_nodes_of(ptr, size, pages_per_node) bind(c, name='omp_numa_nodes_of')
      import :: c_ptr, c_size_t, c_int
      type(c_ptr), value :: ptr
      integer(c_size_t), value :: size
      integer(c_size_t), intent(out) :: pages_per_node(*)
    end function

    real(c_double) function omp_numa_cost_migrate(size, from, to) bind(c, name='omp_numa_cost_migrate')
      import :: c_double, c_size_t, c_int
      integer(c_size_t), value :: size
      integer(c_int), value :: from, to
    end function

    real(c_double) function omp_numa_cost_access(size, from, to, is_write) &
        bind(c, name='omp_numa_cost_access')
      import :: c_double, c_size_t, c_int
      integer(c_size_t), value :: size
      integer(c_int), value :: from, to, is_write
    end function

    integer(c_int) function omp_numa_node_memory(node, total, free) bind(c, name='omp_numa_node_memory')
      import :: c_int, c_size_t
      integer(c_int), value :: node
      integer(c_size_t), intent(out) :: total, free
    end function

    integer(c_int) function omp_numa_update_hints(when) bind(c, name='omp_numa_update_hints')
      import :: c_int
      integer(c_int), value :: when
    end function
  end interface
end module omp_numa
