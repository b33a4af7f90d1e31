#!/usr/bin/env python3
"""SASS of an example's warden kernel beside its twin's, counted by instruction class.

Compiles examples/NAME/NAME_cuda.cu (whose only kernel is the warden kernel's CUDA entry) and
examples/NAME/NAME_twin.cu for sm_90 with the flags of benchmarks/zero_cost.sh, disassembles both
and prints a Markdown table of instruction counts by class (the mnemonic before its first dot:
LDG.E.CONSTANT counts as LDG; NOP padding is left out), the registers ptxas reports, and with
--list both listings.

Disassembler: `cuobjdump -sass` when it is installed (CUDA toolkits with a GPU driver). Without
it, an older nvdisasm named by $NVDISASM (Debian 12's non-free nvidia-cuda-toolkit 11.8 ships one:
`apt-get download nvidia-cuda-toolkit && dpkg-deb -x nvidia-cuda-toolkit_*.deb x`, then
NVDISASM=x/usr/bin/nvdisasm): the cubin's ELF header is rewritten to the layout that version reads
(ELF ABI 7 and its e_flags; the code is untouched), and the instructions it cannot decode (VIADD,
opcode 0x836, newer than it) are listed from the cubin as `VIADD <not decoded>`, so that counts stay
complete.

Usage: benchmarks/sass_compare.py [--list] [--nvcc NVCC] NAME...
"""
import argparse
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FLAGS = ['-std=c++20', '--expt-relaxed-constexpr', '--extended-lambda', '-arch=sm_90', '-O3', '-Iinclude',
         '-Xcudafe=--max_cost_constexpr_call=2000000000', '-Xcompiler=-fconstexpr-ops-limit=4294967295']
ADDRESS = re.compile(r'/\*([0-9a-f]{4})\*/\s*(.*?)\s*;?\s*(/\*.*)?$')


def text_sections(cubin):
    """{section name: (file offset, size)} of the .text.* sections, from the ELF section headers."""
    data = open(cubin, 'rb').read()
    shoff, = struct.unpack_from('<Q', data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
    def header(i):
        return struct.unpack_from('<IIQQQQIIQQ', data, shoff + i * shentsize)
    names_offset = header(shstrndx)[4]
    sections = {}
    for i in range(shnum):
        name_at, _, _, _, offset, size = header(i)[:6]
        end = data.index(b'\0', names_offset + name_at)
        name = data[names_offset + name_at:end].decode()
        if name.startswith('.text.'):
            sections[name] = (offset, size)
    return data, sections


def old_nvdisasm(nvdisasm, cubin, work):
    """Listing of `cubin` by an nvdisasm older than the cubin's ELF layout, gaps filled from the cubin."""
    data = bytearray(open(cubin, 'rb').read())
    flags, = struct.unpack_from('<I', data, 48)
    sm = (flags >> 8) & 0xff
    data[7], data[8] = 0x33, 7  # ELFOSABI_CUDA, ABI version 7
    struct.pack_into('<I', data, 48, sm | 0x500 | (sm << 16))  # EF_CUDA_SM, 64-bit address, unified texmode, virtual SM
    patched = os.path.join(work, 'old.cubin')
    open(patched, 'wb').write(data)
    listing = subprocess.run([nvdisasm, '-c', patched], check=True, capture_output=True, text=True).stdout
    raw, sections = text_sections(cubin)
    out, current, seen = [], None, {}
    for line in listing.splitlines():
        m = re.match(r'^(\.text\.\S+):', line)
        if m:
            current = m.group(1)
            seen[current] = []
        m = ADDRESS.search(line)
        if m and current:
            seen[current].append((int(m.group(1), 16), line))
    for name, lines in seen.items():
        out.append(f'Function : {name[len(".text."):]}')
        offset, size = sections[name]
        by_address = dict(lines)
        for a in range(0, size, 16):
            if a in by_address:
                out.append(by_address[a])
            else:
                low, = struct.unpack_from('<Q', raw, offset + a)
                op = 'VIADD' if (low & 0xfff) == 0x836 else f'UNKNOWN_{low & 0xfff:03x}'
                out.append(f'        /*{a:04x}*/                   {op} <not decoded> ;')
    return '\n'.join(out)


def disassemble(cubin, work):
    if shutil.which('cuobjdump'):
        return subprocess.run(['cuobjdump', '-sass', cubin], check=True, capture_output=True, text=True).stdout
    nvdisasm = os.environ.get('NVDISASM')
    if not nvdisasm:
        sys.exit('sass_compare: no cuobjdump on PATH and no NVDISASM set (see the top of this file)')
    return old_nvdisasm(nvdisasm, cubin, work)


def instructions(listing):
    """The kernel's instructions as (address, text), NOP padding left out."""
    result = []
    for line in listing.splitlines():
        m = ADDRESS.search(line)
        if m and not re.match(r'^(@!?U?P\w+\s+)?NOP\b', m.group(2)):
            result.append((m.group(1), m.group(2)))
    return result


def op_class(text):
    return re.sub(r'^@!?U?P\w+\s+', '', text).split()[0].split('.')[0]


def build(nvcc, source, work, tag):
    cubin = os.path.join(work, tag + '.cubin')
    res = subprocess.run([nvcc, *FLAGS, '--resource-usage', '-cubin', source, '-o', cubin], cwd=ROOT,
                         check=True, capture_output=True, text=True)
    registers = re.search(r'Used (\d+) registers', res.stdout + res.stderr)
    return cubin, int(registers.group(1)) if registers else -1


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--list', action='store_true', help='print both listings too')
    parser.add_argument('--nvcc', default=os.environ.get('CUDACXX') or shutil.which('nvcc') or '/usr/local/cuda/bin/nvcc')
    parser.add_argument('names', nargs='+')
    args = parser.parse_args()
    for name in args.names:
        with tempfile.TemporaryDirectory() as work:
            sides = {}
            for side, source in (('warden', f'examples/{name}/{name}_cuda.cu'), ('twin', f'examples/{name}/{name}_twin.cu')):
                cubin, registers = build(args.nvcc, source, work, side)
                sides[side] = (instructions(disassemble(cubin, work)), registers)
        counts = {side: Counter(op_class(t) for _, t in code) for side, (code, _) in sides.items()}
        classes = sorted(set(counts['warden']) | set(counts['twin']),
                         key=lambda c: (-(counts['warden'][c] + counts['twin'][c]), c))
        print(f'### {name}\n')
        print('| | total | registers | ' + ' | '.join(classes) + ' |')
        print('|---' * (len(classes) + 3) + '|')
        for side in ('warden', 'twin'):
            code, registers = sides[side]
            print(f'| {side} | {len(code)} | {registers} | ' + ' | '.join(str(counts[side][c]) for c in classes) + ' |')
        print()
        if args.list:
            for side in ('warden', 'twin'):
                print(f'{side}:')
                for address, text in sides[side][0]:
                    print(f'  {address}  {text}')
                print()


if __name__ == '__main__':
    main()
