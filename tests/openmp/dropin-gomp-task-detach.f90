! task detach(event) in a gfortran program on the libgomp drop-in (GCC's task-detach-1.f90): a chain of detached
! tasks fulfilled by later tasks; it crashed inside libomp, whose GOMP_task ignores the event it is handed. Same
! output as on GCC's own libgomp.
! REQUIRES: gfortran
! RUN: %gfortran-omp %s -o %t
! RUN: env -u LD_LIBRARY_PATH %t > %t.libgomp
! RUN: %dropin timeout 60 %t > %t.dropin
! RUN: diff %t.libgomp %t.dropin
! RUN: FileCheck %s < %t.dropin
! CHECK: fortran chain: 1 1 1
program task_detach
  use omp_lib
  implicit none
  integer(kind=omp_event_handle_kind) :: e1, e2
  integer :: x, y, z
  x = 0
  y = 0
  z = 0
  !$omp parallel num_threads(2)
  !$omp single
  !$omp task detach(e1)
  x = x + 1
  !$omp end task
  !$omp task detach(e2)
  y = y + 1
  call omp_fulfill_event(e1)
  !$omp end task
  !$omp task
  z = z + 1
  call omp_fulfill_event(e2)
  !$omp end task
  !$omp end single
  !$omp end parallel
  print '(a,3i2)', 'fortran chain:', x, y, z
end program
