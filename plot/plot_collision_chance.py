"""Run time and collision counts against a constant collision chance (seed 003 §5.3.1, figures
5.15-5.17): one line per scheduler. Reads the run records in DIR, writes DIR/collision_chance.png."""

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from results import by_scheduler, device_label, load_runs, main, save  # noqa: E402


def plot(directory):
    runs = [r for r in load_runs(directory) if r["config"].get("collision_chance") is not None]
    if not runs:
        raise SystemExit(f"plot_collision_chance: no pic runs with a collision chance in {directory}")
    fig, (ax_time, ax_events) = plt.subplots(1, 2, figsize=(11, 4.2))
    for scheduler, group in by_scheduler(runs).items():
        group.sort(key=lambda r: r["config"]["collision_chance"])
        chance = [r["config"]["collision_chance"] for r in group]
        ax_time.plot(chance, [r["result"]["time_ms"] for r in group], "o-", label=scheduler)
    first = next(iter(by_scheduler(runs).values()))
    chance = [r["config"]["collision_chance"] for r in first]
    ax_events.plot(chance, [r["result"]["counts"]["spawned"] for r in first], "o-", label="spawned")
    ax_events.plot(chance, [r["result"]["counts"]["removed"] for r in first], "s--", label="removed")
    c = runs[0]["config"]
    fig.suptitle(f"pic, init_n {c['init_n']}, {c['poisson_steps']} x {c['mobility_steps']} steps — "
                 f"{device_label(runs)}")
    ax_time.set_ylabel("time (ms)")
    ax_events.set_ylabel("particles")
    for ax in (ax_time, ax_events):
        ax.set_xlabel("collision chance per step (%), split = remove = half")
        ax.grid(True, alpha=0.3)
        ax.legend()
    return save(fig, directory, "collision_chance.png")


if __name__ == "__main__":
    main(plot, __doc__, "run results of jobs/pic-collision-chance.json")
