"""Prints bx_expf's table: bits(2^(i/32) rounded to the nearest double) - (i << 47).

The values are computed from scratch with 80-digit decimal arithmetic and rounded
once to double; common/maths/expf_constants.hpp holds the output. Run: python3 gen_exp2_table.py
"""
import struct
from decimal import Decimal, getcontext

getcontext().prec = 80
N = 32
for i in range(N):
    v = float(Decimal(2) ** (Decimal(i) / N))  # float(Decimal) rounds correctly
    bits = struct.unpack("<Q", struct.pack("<d", v))[0]
    print(f"0x{(bits - (i << 47)) % 2**64:016x},", end="\n" if i % 4 == 3 else " ")
