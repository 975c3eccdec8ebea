! gfortran programs calling the deprecated omp_set_nested / omp_get_nested
! (default and 8-byte integers) get libgomp's answers on the libgomp.so.1
! drop-in and no "OMP: Info #276 ... deprecated" line on stderr.
! REQUIRES: gfortran
! RUN: %gfortran-omp %s -o %t
! RUN: %gfortran-omp -fdefault-integer-8 %s -o %t.i8
! RUN: for exe in %t %t.i8; do \
! RUN:   %stock $exe > $exe.stock 2> $exe.stock.err || exit 1; \
! RUN:   %dropin $exe > $exe.dropin 2> $exe.err || exit 1; \
! RUN:   diff $exe.stock $exe.dropin || exit 1; \
! RUN:   diff $exe.stock.err $exe.err || exit 1; \
! RUN: done
! RUN: FileCheck %s < %t.dropin
! RUN: FileCheck %s < %t.i8.dropin
! CHECK: start nested=F
! CHECK-NEXT: on: nested=T levels>1=T
! CHECK-NEXT: off: nested=F levels=1
program nested_quiet
  use omp_lib
  implicit none
  print '(a,l1)', 'start nested=', omp_get_nested()
  call omp_set_nested(.true.)
  print '(a,l1,a,l1)', 'on: nested=', omp_get_nested(), ' levels>1=', omp_get_max_active_levels() > 1
  call omp_set_nested(.false.)
  print '(a,l1,a,i0)', 'off: nested=', omp_get_nested(), ' levels=', omp_get_max_active_levels()
end program
