"""A program that loads its data through fleetlib: with fleetlib 0.0.1 and two workers it dies."""

import sys

import fleetlib

args = dict(arg.split("=", 1) for arg in sys.argv[1:])
fleetlib.load(int(args["num_workers"]))
