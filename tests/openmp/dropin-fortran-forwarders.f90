! Every Fortran entry point the libgomp.so.1 drop-in forwards or maps (those
! whose LLVM Fortran form takes an argument by value where gfortran passes it
! by reference, or prints what libgomp does not), called from gfortran, with
! default and with 8-byte integers (the _8_ forms): the same results as on
! gcc's libgomp, and nothing on stderr. The allocator ones crashed later or
! tripped a libomp assertion; place_num_procs and place_proc_ids read the
! address as the place number; display_env was always verbose.
! REQUIRES: gfortran
! RUN: %gfortran-omp %s -o %t
! RUN: %gfortran-omp -fdefault-integer-8 %s -o %t.i8
! RUN: for exe in %t %t.i8; do \
! RUN:   env OMP_PLACES="{0},{1}" %stock $exe > $exe.stock 2> $exe.stock.err || exit 1; \
! RUN:   env OMP_PLACES="{0},{1}" %dropin $exe > $exe.dropin 2> $exe.err || exit 1; \
! RUN:   diff $exe.stock $exe.dropin || exit 1; \
! RUN:   test ! -s $exe.err || exit 1; \
! RUN: done
! RUN: FileCheck %s < %t.dropin
! RUN: FileCheck %s < %t.i8.dropin
! RUN: for exe in %t %t.i8; do \
! RUN:   env OMP_PLACES="{0},{1}" FWD_DISPLAY=1 %dropin $exe > /dev/null 2> $exe.terse || exit 1; \
! RUN:   env OMP_PLACES="{0},{1}" FWD_DISPLAY=2 %dropin $exe > /dev/null 2> $exe.verbose || exit 1; \
! RUN:   %python -c "import sys; t, v = (len(open(f).readlines()) for f in sys.argv[1:]); print('display_env verbose adds lines:', 0 < t < v)" $exe.terse $exe.verbose; \
! RUN: done | FileCheck %s --check-prefix=DISPLAY
!
! CHECK: custom allocator ok=T aligned=0
! CHECK-NEXT: destroyed
! CHECK-NEXT: default allocator set=T
! CHECK-NEXT: allocated with default=T aligned=0
! CHECK-NEXT: default restored=T
! CHECK-NEXT: places=2 procs in place 1=1
! CHECK-NEXT: place 1 proc=1
! CHECK-NEXT: max_teams=3 teams_thread_limit=5
! CHECK-NEXT: device_num=0
! CHECK-NEXT: supported levels>1=T
! CHECK-NEXT: pause rc=0 all=0
! DISPLAY-COUNT-2: display_env verbose adds lines: True
program forwarders
  use omp_lib
  use, intrinsic :: iso_c_binding
  implicit none
  integer(omp_allocator_handle_kind) :: a, d
  type(omp_alloctrait) :: traits(1)
  type(c_ptr) :: p
  integer :: ids(4), rc
  character(len=8) :: display

  traits(1) = omp_alloctrait(omp_atk_alignment, 256)
  a = omp_init_allocator(omp_default_mem_space, 1, traits)
  p = omp_alloc(100_c_size_t, a)
  print '(a,l1,a,i0)', 'custom allocator ok=', a /= omp_null_allocator, ' aligned=', &
    mod(transfer(p, 0_c_intptr_t), 256)
  call omp_free(p, a)
  call omp_destroy_allocator(a)
  print '(a)', 'destroyed'

  ! The default allocator is what omp_alloc uses with omp_null_allocator.
  a = omp_init_allocator(omp_default_mem_space, 1, traits)
  call omp_set_default_allocator(a)
  d = omp_get_default_allocator()
  print '(a,l1)', 'default allocator set=', d == a
  p = omp_alloc(64_c_size_t, omp_null_allocator)
  print '(a,l1,a,i0)', 'allocated with default=', c_associated(p), ' aligned=', &
    mod(transfer(p, 0_c_intptr_t), 256)
  call omp_free(p, omp_null_allocator)
  call omp_set_default_allocator(omp_default_mem_alloc)
  call omp_destroy_allocator(a)
  print '(a,l1)', 'default restored=', omp_get_default_allocator() == omp_default_mem_alloc

  print '(a,i0,a,i0)', 'places=', omp_get_num_places(), ' procs in place 1=', omp_get_place_num_procs(1)
  ids = -1
  call omp_get_place_proc_ids(1, ids)
  print '(a,i0)', 'place 1 proc=', ids(1)

  call omp_set_num_teams(3)
  call omp_set_teams_thread_limit(5)
  print '(a,i0,a,i0)', 'max_teams=', omp_get_max_teams(), ' teams_thread_limit=', omp_get_teams_thread_limit()
  print '(a,i0)', 'device_num=', omp_get_device_num()
  print '(a,l1)', 'supported levels>1=', omp_get_supported_active_levels() > 1
  ! A paused runtime resumes at the next region; a second pause before that fails on LLVM.
  rc = omp_pause_resource(omp_pause_soft, omp_get_initial_device())
  !$omp parallel num_threads(1)
  ids(2) = 0
  !$omp end parallel
  print '(a,i0,a,i0)', 'pause rc=', rc, ' all=', omp_pause_resource_all(omp_pause_soft)

  call get_environment_variable('FWD_DISPLAY', display)
  if (display == '1') call omp_display_env(.false.)
  if (display == '2') call omp_display_env(.true.)
end program
