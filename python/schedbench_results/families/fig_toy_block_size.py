"""Seed Figures 5.1-5.3 (§5.1.1): the toy's run time against block size; with grids filling
every SM, the same without huge-iterate (which dwarfs the rest), and for the schedulers that
size their grid from the device, with one block per SM. Reads the results of
jobs/toy-block-size.json."""

from ..figures import Panel, config, figure, main, ok_points, sweeps_along, view_without

JOB = "toy-block-size"
TIME = (Panel(("time",)),)


def filled(points):
    """Points whose grid fills every SM: blocks_per_sm "fill", or a grid not sized from the
    device at all (no blocks_per_sm), as in the seed's Figure 5.1."""
    return [p for p in points if config(p).get("blocks_per_sm", "fill") == "fill"]


def one_block(points):
    """Points run with one block per SM (seed Figure 5.3)."""
    return [p for p in points if config(p).get("blocks_per_sm") == 1]


def figures(job):
    """Per block-size sub-sweep: filled SMs, the same without huge-iterate, one block per SM."""
    made = []
    for _, points in sweeps_along(ok_points(job), "block_size"):
        full = filled(points)
        if full:
            made.append(figure(job, "fig5.1_toy_block_size", "Figure 5.1",
                               "toy run time against block size, grids filling every SM",
                               "block_size", full, TIME, xscale="log2",
                               regime="toy, block size, filled SMs"))
        rest = view_without(full, "huge-iterate")
        if rest:
            made.append(figure(job, "fig5.2_toy_block_size_no_huge", "Figure 5.2",
                               "toy run time against block size, filled SMs, without "
                               "huge-iterate", "block_size", rest, TIME, xscale="log2"))
        if one_block(points):
            made.append(figure(job, "fig5.3_toy_block_size_one_block_per_sm", "Figure 5.3",
                               "toy run time against block size, one block per SM",
                               "block_size", one_block(points), TIME, xscale="log2",
                               regime="toy, block size, one block per SM"))
    return made


if __name__ == "__main__":
    main(figures, __doc__)
