! A gfortran main program's regions are named MAIN__ from the ELF symbol
! table (not binary+offset), with file:line from the debug information.
! REQUIRES: gfortran
! RUN: %gfortran-omp %s -o %t
! RUN: rm -f %t.json
! RUN: env OMP_PLACEMENT_REPORT=%t.json %dropin %t > /dev/null
! RUN: %python %S/Inputs/print-names.py %t.json | FileCheck %s
program region_names
  implicit none
  integer :: i, s
  s = 0
! CHECK: MAIN__+0x{{[0-9a-f]+}} region-names.f90:[[@LINE+1]]
  !$omp parallel do reduction(+:s)
  do i = 1, 100
    s = s + i
  end do
  print *, s
end program
