/* check-layers-writers.test: writes to the region record from a part that does not own the fields. */
void foreign(rt_region_t *r, const rt_region_t *q)
{
    r->outcome = RT_OUTCOME_KEPT;
    r->pin_cpu[r->team_size - 1] = q->pin_cpu[0];
    if (r->measuring == 1 && q->outcome != 2)
        puts("r->outcome = 1; { not code }");
    __atomic_store_n(&r->quiet, __atomic_load_n(&r->pins_applied, __ATOMIC_RELAXED), __ATOMIC_RELAXED);
}

void untyped(int i)
{
    rt_region_at(i)->confirming++;
}
