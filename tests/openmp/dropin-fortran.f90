! A gfortran program (parallel do with reductions, omp_lib calls, a critical
! section and an atomic) prints the same on gcc's libgomp and on ompnuma's
! libgomp.so.1 drop-in, which then runs it on the LLVM runtime.
! REQUIRES: gfortran
! RUN: %gfortran-omp %s -o %t
! RUN: %stock %t > %t.stock
! RUN: %dropin env OMP_PLACEMENT_DISPLAY_ENV=true %t > %t.dropin 2> %t.err
! RUN: diff %t.stock %t.dropin
! RUN: FileCheck %s < %t.dropin
! RUN: FileCheck %s --check-prefix=LOADED < %t.err
!
! CHECK: sum=500500 max=1000 prod=3628800
! CHECK-NEXT: threads=2 in_parallel=T outside=F max_threads=2
! CHECK-NEXT: critical=2000 atomic=2000
! CHECK-NEXT: nested levels=2 active=2
! LOADED: OMPNUMA DISPLAY ENVIRONMENT BEGIN
program dropin_fortran
  use omp_lib
  implicit none
  integer :: i, mx, nthr, crit, atom, lvl, act
  integer(8) :: s, p
  logical :: inpar

  s = 0
  mx = 0
  !$omp parallel do reduction(+:s) reduction(max:mx)
  do i = 1, 1000
    s = s + i
    mx = max(mx, i)
  end do
  !$omp end parallel do
  p = 1
  !$omp parallel do reduction(*:p)
  do i = 1, 10
    p = p * i
  end do
  !$omp end parallel do
  print '(a,i0,a,i0,a,i0)', 'sum=', s, ' max=', mx, ' prod=', p

  !$omp parallel
  !$omp single
  nthr = omp_get_num_threads()
  inpar = omp_in_parallel()
  !$omp end single
  !$omp end parallel
  print '(a,i0,a,l1,a,l1,a,i0)', 'threads=', nthr, ' in_parallel=', inpar, &
       ' outside=', omp_in_parallel(), ' max_threads=', omp_get_max_threads()

  crit = 0
  atom = 0
  !$omp parallel private(i)
  do i = 1, 1000
    !$omp critical
    crit = crit + 1
    !$omp end critical
    !$omp atomic
    atom = atom + 1
  end do
  !$omp end parallel
  print '(a,i0,a,i0)', 'critical=', crit, ' atomic=', atom

  call omp_set_max_active_levels(2)
  lvl = 0
  act = 0
  !$omp parallel num_threads(2)
  !$omp parallel num_threads(2)
  if (omp_get_thread_num() == 0 .and. omp_get_ancestor_thread_num(1) == 0) then
    lvl = omp_get_level()
    act = omp_get_active_level()
  end if
  !$omp end parallel
  !$omp end parallel
  print '(a,i0,a,i0)', 'nested levels=', lvl, ' active=', act
end program dropin_fortran
