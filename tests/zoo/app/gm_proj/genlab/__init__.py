"""genlab: small generative models (a GAN, a VAE, a diffusion model) written with torch alone."""
