! The omp_numa Fortran module: allocate, fill, migrate, query placement, costs and node memory from Fortran, with the data intact.
! RUN: %gfortran-omp %s %memlib -o %t && %t | FileCheck %s
! REQUIRES: gfortran
program fortran_module
  use omp_numa
  use, intrinsic :: iso_c_binding
  implicit none
  type(c_ptr) :: p
  real(c_double), pointer :: a(:)
  integer(c_size_t) :: n, bytes, total, freeb
  integer(c_size_t), allocatable :: per(:)
  integer :: i, un
  n = 100000
  bytes = n * 8
  print '(a,l1)', 'nodes>=1: ', omp_numa_num_nodes() >= 1
  p = omp_numa_alloc(bytes, OMP_NUMA_BIND, 0_c_int)
  print '(a,l1)', 'allocated: ', c_associated(p)
  call c_f_pointer(p, a, [n])
  do i = 1, int(n)
    a(i) = real(i, c_double)
  end do
  print '(a,i0)', 'migrate: ', omp_numa_migrate_to_node(p, bytes, 0_c_int)
  print '(a,i0)', 'arm: ', omp_numa_migrate_on_next_touch(p, bytes)
  print '(a,l1)', 'sum intact: ', sum(a) == real(n, c_double) * real(n + 1, c_double) / 2
  allocate(per(omp_numa_num_nodes()))
  un = omp_numa_nodes_of(p, bytes, per)
  print '(a,i0,a,l1)', 'unplaced: ', un, ' all placed: ', sum(per) == (bytes + 4095) / 4096
  print '(a,i0)', 'attach: ', omp_numa_attach(p, bytes, 0_c_int)
  print '(a,i0)', 'detach: ', omp_numa_detach(p)
  print '(a,i0)', 'bad node: ', omp_numa_migrate_to_node(p, bytes, -5_c_int)
  print '(a,l1)', 'cost within node is 0: ', omp_numa_cost_migrate(bytes, 0_c_int, 0_c_int) == 0
  print '(a,l1)', 'access cost > 0: ', omp_numa_cost_access(bytes, 0_c_int, 0_c_int, 0_c_int) > 0
  print '(a,i0,a,l1)', 'node memory: ', omp_numa_node_memory(0_c_int, total, freeb), ' ', total >= freeb
  call omp_numa_free(p)
end program
! CHECK: nodes>=1: T
! CHECK-NEXT: allocated: T
! CHECK-NEXT: migrate: 0
! CHECK-NEXT: arm: 0
! CHECK-NEXT: sum intact: T
! CHECK-NEXT: unplaced: 0 all placed: T
! CHECK-NEXT: attach: 0
! CHECK-NEXT: detach: 0
! CHECK-NEXT: bad node: -1
! CHECK-NEXT: cost within node is 0: T
! CHECK-NEXT: access cost > 0: T
! CHECK-NEXT: node memory: 0 T
