/* check-layers-writers.test: the owner writes its own fields. */
static void own(rt_region_t *r, rt_loop_region_t *st)
{
    r->outcome = RT_OUTCOME_KEPT;
    __atomic_store_n(&r->pin_cpu[0], -1, __ATOMIC_RELAXED);
    st->cp_before_ns = 1.0;
    memset(st->tnt_after, 0, 8);
}
