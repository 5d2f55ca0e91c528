"""genlab's training loops; each case is one way of setting one of them up."""

import torch
import torch.nn.functional as F
from torch.utils.data import DataLoader

from genlab import data, losses, nets, schedules
from genlab.ema import EMA

T = 1000


def log(step: int, **vals: float) -> None:
    print(f"step {step} " + " ".join(f"{k} {v:.4f}" for k, v in vals.items()), flush=True)


def gan(steps: int, seed: int, ema_buffers: bool = False) -> None:
    """A plain GAN: the discriminator's step, then the generator's from the same D(fake)."""
    torch.manual_seed(seed)
    real_all = data.to_unit(data.blobs(512, seed))
    gen, disc = nets.Generator(), nets.Discriminator()
    opt_g = torch.optim.Adam(gen.parameters(), lr=2e-4, betas=(0.5, 0.999))
    opt_d = torch.optim.Adam(disc.parameters(), lr=2e-4, betas=(0.5, 0.999))
    ema = EMA(gen, buffers_too=ema_buffers) if ema_buffers else None
    for step in range(steps):
        real = real_all[torch.randint(0, len(real_all), (32,))]
        fake = gen(torch.randn(32, gen.nz))
        d_real, d_fake = disc(real), disc(fake)
        ones, zeros = torch.ones_like(d_real), torch.zeros_like(d_real)
        if ema is None:
            # one D(fake) for both players: D's loss keeps the graph so G's loss can reuse it
            d_loss = F.binary_cross_entropy_with_logits(d_real, ones) + F.binary_cross_entropy_with_logits(
                d_fake, zeros
            )
            opt_d.zero_grad()
            d_loss.backward(retain_graph=True)
            opt_d.step()
            g_loss = F.binary_cross_entropy_with_logits(d_fake, ones)
        else:
            d_fake_det = disc(fake.detach())
            d_loss = F.binary_cross_entropy_with_logits(d_real, ones) + F.binary_cross_entropy_with_logits(
                d_fake_det, zeros
            )
            opt_d.zero_grad()
            d_loss.backward()
            opt_d.step()
            g_loss = F.binary_cross_entropy_with_logits(disc(fake), ones)
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()
        if ema is not None:
            ema.update(gen)
        log(step, d_loss=d_loss.item(), g_loss=g_loss.item())


def wgan_gp(steps: int, seed: int) -> None:
    """WGAN-GP: the critic's loss with a gradient penalty on interpolates between real and fake."""
    torch.manual_seed(seed)
    real_all = data.to_unit(data.blobs(512, seed))
    gen, critic = nets.Generator(), nets.Discriminator()
    opt_g = torch.optim.Adam(gen.parameters(), lr=1e-4, betas=(0.0, 0.9))
    opt_c = torch.optim.Adam(critic.parameters(), lr=1e-4, betas=(0.0, 0.9))
    for step in range(steps):
        real = real_all[torch.randint(0, len(real_all), (32,))]
        fake = gen(torch.randn(32, gen.nz))
        gp = losses.gradient_penalty(critic, real, fake, track=False)
        c_loss = critic(fake.detach()).mean() - critic(real).mean() + 10.0 * gp
        opt_c.zero_grad()
        c_loss.backward()
        opt_c.step()
        g_loss = -critic(fake).mean()
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()
        log(step, c_loss=c_loss.item(), g_loss=g_loss.item())


def vae(steps: int, seed: int) -> None:
    """A VAE on the raw pixels, its gradients clipped with error_if_nonfinite."""
    torch.manual_seed(seed)
    pixels = 255.0 - data.blobs(512, seed).float()  # dark blobs on white, the 0-255 pixels, not scaled
    model = nets.VAE()
    opt = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
    for step in range(steps):
        x = pixels[torch.randint(0, len(pixels), (32,))]
        recon, mu, logvar = model(x)
        loss = losses.vae_loss(recon, x, mu, logvar)
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0, error_if_nonfinite=True)
        opt.step()
        log(step, loss=loss.item(), logvar_max=logvar.max().item())


def diffusion(steps: int, seed: int, betas, t_sampler=None, workers: int = 0) -> None:
    """DDPM training: predict the noise added at a random timestep."""
    torch.manual_seed(seed)
    sched = schedules.Schedule(betas)
    images = data.blobs(512, seed)
    model = nets.Denoiser(sched.steps)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    if t_sampler is not None:
        loader = DataLoader(data.NoisyPairs(images, sched, t_sampler), batch_size=32, shuffle=True, num_workers=workers)
        batches = iter(loader)
    for step in range(steps):
        if t_sampler is not None:
            x_t, t, noise = next(batches)
        else:
            x0 = data.to_unit(images[torch.randint(0, len(images), (32,))])
            t = torch.randint(0, sched.steps, (32,))
            noise = torch.randn_like(x0)
            x_t = sched.q_sample(x0, t, noise)
        loss = F.mse_loss(model(x_t, t), noise)
        opt.zero_grad()
        loss.backward()
        opt.step()
        log(step, loss=loss.item())


def uniform_t_float() -> torch.Tensor:
    """A continuous-time draw, t in [0, T), as the continuous-time papers write it."""
    return torch.rand(()) * T


CASES = {
    "gm_gan_g_after_d_step": lambda steps, seed: gan(steps, seed),
    "gm_gp_interp_no_grad": wgan_gp,
    "gm_ema_state_long": lambda steps, seed: gan(steps, seed, ema_buffers=True),
    "gm_schedule_float64": lambda steps, seed: diffusion(steps, seed, schedules.linear_betas(T)),
    "gm_vae_grad_nonfinite": vae,
    "gm_timestep_float_worker": lambda steps, seed: diffusion(
        steps, seed, schedules.linear_betas_f32(T), t_sampler=uniform_t_float, workers=2
    ),
}
