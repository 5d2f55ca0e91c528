"""Train PPO on the numpy pole with environments in subprocesses: `python examples/train_ppo.py case=NAME k=v`.

Like many research repositories, the script makes the project's package importable by putting the project folder
on sys.path itself.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import multiprocessing as mp  # noqa: E402

import torch  # noqa: E402
from rlkit.buffer import SharedReplay  # noqa: E402
from rlkit.envs import Pole  # noqa: E402
from rlkit.ppo import ActorCritic, rollout, update  # noqa: E402
from rlkit.vec_env import SubprocVecEnv  # noqa: E402

DEFAULTS = {"n_envs": 2, "steps": 16, "updates": 3, "minibatch": 16, "n_actions": 2, "obs_dims": "4,4"}
CASES = {
    "rl_worker_step_raises": {"n_actions": 3},  # the policy head from the 3-action variant's config
    "rl_worker_obs_shape": {"obs_dims": "4,5"},  # env 1 is the variant with a velocity sensor
    "rl_worker_exits_on_done": {"stop_on_done": 1},  # the evaluation worker's loop, reused for training
    "rl_categorical_nan_logits": {"minibatch": 1},  # one sample per minibatch, to "debug" the update
    "rl_buffer_share_resize": {"replay": 1},
    "rl_close_then_eval": {"eval_after": 1},
}


def parse(argv: list[str]) -> dict:
    cfg = dict(DEFAULTS)
    given = dict(a.split("=", 1) for a in argv)
    cfg.update(CASES.get(given.get("case", ""), {}))
    cfg.update(given)
    return cfg


def make_env(seed: int, obs_dim: int):
    return lambda: Pole(seed, obs_dim=obs_dim)


def actor(replay: SharedReplay, seed: int, n: int) -> None:
    env = Pole(seed)
    obs = env.reset()
    for _ in range(n):
        obs, reward, done, _ = env.step(int(env.rng.integers(2)))
        replay.add(obs, reward)
        if done:
            obs = env.reset()


def fill_replay(capacity: int = 64) -> None:
    replay = SharedReplay(capacity, 4)
    ctx = mp.get_context("fork")
    for rnd in range(2):
        procs = [ctx.Process(target=actor, args=(replay, 10 * rnd + i, capacity // 2)) for i in range(2)]
        for p in procs:
            p.start()
        for p in procs:
            p.join()
        print(f"round {rnd}: {replay.count.value} transitions, mean reward {replay.reward.mean():.2f}", flush=True)
        if replay.count.value >= replay.capacity:
            replay.grow()


def evaluate(envs, model: ActorCritic, episodes: int = 2) -> float:
    obs, total, finished = envs.reset(), 0.0, 0
    while finished < episodes:
        with torch.no_grad():
            act = model.dist(torch.as_tensor(obs)).probs.argmax(-1)
        obs, rew, done = envs.step(act.numpy())
        total += float(rew.sum())
        finished += int(done.sum())
    return total / episodes


def main() -> None:
    cfg = parse(sys.argv[1:])
    torch.manual_seed(0)
    if int(cfg.get("replay", 0)):
        fill_replay()
        return
    dims = [int(d) for d in str(cfg["obs_dims"]).split(",")]
    envs = SubprocVecEnv([make_env(i, d) for i, d in enumerate(dims)], 4, bool(int(cfg.get("stop_on_done", 0))))
    model = ActorCritic(4, int(cfg["n_actions"]))
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    obs = envs.reset()
    for it in range(int(cfg["updates"])):
        batch, obs = rollout(envs, model, obs, int(cfg["steps"]))
        loss = update(model, opt, batch, int(cfg["minibatch"]))
        print(f"update {it}: return/step {batch['rew'].mean():.2f} loss {loss:.3f}", flush=True)
    envs.close()
    if int(cfg.get("eval_after", 0)):
        print(f"eval return {evaluate(envs, model):.1f}", flush=True)


if __name__ == "__main__":
    main()
