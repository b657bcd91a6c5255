"""The demo figure: run time and particle-steps per second against the initial number of
particles, one line per scheduler. Reads the run records in DIR, writes DIR/demo.png."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from results import by_scheduler, device_label, load_runs, main, save  # noqa: E402


def plot(directory):
    runs = load_runs(directory)
    if not runs:
        raise SystemExit(f"plot_demo: no run results in {directory}")
    fig, (ax_time, ax_rate) = plt.subplots(1, 2, figsize=(11, 4.2))
    for scheduler, group in by_scheduler(runs).items():
        group.sort(key=lambda r: r["config"]["init_n"])
        n = [r["config"]["init_n"] for r in group]
        ax_time.plot(n, [r["result"]["time_ms"] for r in group], "o-", label=scheduler)
        ax_rate.plot(n, [r["result"]["particle_steps_per_s"] for r in group], "o-", label=scheduler)
    config = runs[0]["config"]
    title = (f"{config['sim']}: {config.get('steps')} steps, split chance "
             f"{config.get('split_chance')} % — {device_label(runs)}")
    for ax, label in ((ax_time, "time (ms)"), (ax_rate, "particle-steps per second")):
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("initial particles")
        ax.set_ylabel(label)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    fig.suptitle(title)
    return save(fig, directory, "demo.png")


if __name__ == "__main__":
    main(plot, __doc__, "a directory of run results (schedbench sweep --out)")
