"""A kernel image a user brings (IMAGE=): what it is, read from its bytes.

The format gives the arch (an arch stanza's IMAGE_FORMATS names the ones
it boots): an x86 bzImage (its setup header; 64-bit when xloadflags says
so), an arm64 or RISC-V Image (their headers' magic), an arm zImage, an
s390 image (its IPL record), an ELF file (its machine), an EFI zboot file, or any of them compressed
whole (gzip, xz, lzma, bzip2 from Python; zstd and lz4 through their
tools).  The version comes from the kernel's own banner ("Linux version
..."): the bzImage header points at it; elsewhere it is found in the
kernel's bytes, decompressing the payload where it is packed inside.
Nothing here writes anything but the unpacked copy a boot needs (unpack).
"""

import os
import re
import struct

from .data import DataError


class ImageError(DataError):
    """Bad input given with IMAGE= (exit 2: nothing was started)."""


# Whole-file or embedded compressed streams: magic, name.
COMPRESSED = ((b"\x1f\x8b\x08", "gzip"), (b"\xfd7zXZ\x00", "xz"), (b"BZh", "bzip2"),
              (b"\x28\xb5\x2f\xfd", "zstd"), (b"\x02\x21\x4c\x18", "lz4"), (b"\x5d\x00\x00", "lzma"))
# ELF machines by number: the format word an arch stanza names.
ELF_MACHINES = {3: "i386", 62: "x86_64", 183: "aarch64", 40: "arm", 21: "ppc64", 22: "s390", 243: "riscv",
                8: "mips", 2: "sparc", 43: "sparcv9", 258: "loongarch", 15: "parisc", 42: "sh"}
BANNER = re.compile(rb"Linux version ([0-9][^ \x00\n]*) [^\x00\n]*")
TOOLS = {"zstd": ["zstd", "-dcq"], "lz4": ["lz4", "-dcq"]}


def decompress(kind, data, what):
    """data's first stream of kind, decompressed (trailing bytes ignored)."""
    import lzma
    import zlib
    try:
        if kind == "gzip":
            return zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(data)
        if kind == "xz":
            return lzma.LZMADecompressor(lzma.FORMAT_XZ).decompress(data)
        if kind == "lzma":
            return lzma.LZMADecompressor(lzma.FORMAT_ALONE).decompress(data)
        if kind == "bzip2":
            import bz2
            return bz2.BZ2Decompressor().decompress(data)
    except (OSError, EOFError, ValueError, lzma.LZMAError, zlib.error) as e:
        raise ImageError(f"{what} looks {kind}-compressed but does not decompress ({e}): give the kernel image file itself")
    import shutil
    import subprocess
    argv = TOOLS[kind]
    if not shutil.which(argv[0]):
        raise ImageError(f"{what} is {kind}-compressed and there is no {argv[0]} here to open it: apt-get install {argv[0]}")
    r = subprocess.run(argv, input=data, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    if not r.stdout:
        raise ImageError(f"{what} looks {kind}-compressed but {argv[0]} cannot open it: give the kernel image file itself")
    return r.stdout


def _u16(d, o):
    return struct.unpack_from("<H", d, o)[0]


def _u32(d, o):
    return struct.unpack_from("<I", d, o)[0]


def _cstr(d, o):
    end = d.find(b"\0", o)
    return d[o:end if end >= 0 else len(d)].decode("latin-1")


def banner_in(data, what, deep=True):
    """The first "Linux version" banner in data; with deep, also in each
    compressed stream packed inside (the way extract-vmlinux looks)."""
    m = BANNER.search(data)
    if m:
        return m.group(0).decode("latin-1")
    if not deep:
        return ""
    tried = 0
    for magic, kind in COMPRESSED:
        at = data.find(magic)
        while at >= 0 and tried < 64:
            tried += 1
            try:
                inner = decompress(kind, data[at:], what)
            except ImageError:
                inner = b""
            m = BANNER.search(inner)
            if m:
                return m.group(0).decode("latin-1")
            at = data.find(magic, at + 1)
    return ""


class Image:
    """One kernel image file: fmt (the format word), kernel (the bytes QEMU
    boots: the file, or its decompressed form where QEMU wants a raw
    Image), compression, banner, release (uname -r) and version."""

    def __init__(self, path):
        self.path = path
        what = f"IMAGE={path}"
        try:
            with open(path, "rb") as f:
                raw = f.read()
        except OSError as e:
            raise ImageError(f"{what} is not readable ({e.strerror}): give a kernel image file you can read")
        self.compression = ""
        data = raw
        for magic, kind in COMPRESSED:
            if raw.startswith(magic):
                self.compression = kind
                data = decompress(kind, raw, what)
                break
        # EFI zboot (arm64, riscv64): a PE file with the compressed Image inside.
        if data[:2] == b"MZ" and data[4:8] == b"zimg":
            off, size = _u32(data, 8), _u32(data, 12)
            kind = data[0x18:0x38].split(b"\0")[0].decode("latin-1")
            if kind not in dict((k, m) for m, k in COMPRESSED):
                raise ImageError(f"{what} is an EFI zboot image compressed with '{kind}', which this cannot open")
            self.compression = f"zboot-{kind}"
            data = decompress(kind, data[off:off + size], what)
        if len(data) < 4096:
            raise ImageError(f"{what} is {len(data)} bytes: not a kernel image (a vmlinuz, bzImage, Image or vmlinux)")
        self.fmt, self.banner = self.sniff(data, what)
        # QEMU boots a bzImage, a zImage and an ELF file as they are; a raw
        # Image (arm64, riscv) it is given decompressed.
        self.kernel = raw if (self.fmt.startswith(("bzImage", "arm-zImage")) or self.compression == "") else data
        if not self.banner:
            raise ImageError(f"{what} ({self.fmt}) has no 'Linux version' banner: not a Linux kernel, or packed in a form this cannot open")
        m = BANNER.match(self.banner.encode("latin-1"))
        self.release = m.group(1).decode("latin-1")
        self.version = upstream_version(self.banner, self.release)
        if not self.version:
            raise ImageError(f"{what}: its release '{self.release}' names no kernel version")
        self.vendor = vendor_of(self.banner, self.release)
        self.rt = "PREEMPT_RT" if re.search(r"\bPREEMPT_RT\b", self.banner) else ""

    def sniff(self, d, what):
        """(format word, banner) of the decompressed file d."""
        if len(d) > 0x250 and d[0x202:0x206] == b"HdrS":
            proto = _u16(d, 0x206)
            bits = ""
            if proto >= 0x20c:
                bits = "64" if _u16(d, 0x236) & 1 else "32"
            ptr = _u16(d, 0x20e)
            banner = ""
            if proto >= 0x200 and ptr:
                s = _cstr(d, ptr + 0x200)
                banner = f"Linux version {s}" if re.match(r"[0-9]", s) else ""
            if not banner and proto >= 0x208:
                setup = (d[0x1f1] or 4) + 1
                off, size = _u32(d, 0x248), _u32(d, 0x24c)
                banner = banner_in(d[setup * 512 + off:setup * 512 + off + size], what)
            if not bits:
                # Before boot protocol 2.12 the header does not say: the banner might.
                bits = "64" if "x86_64" in banner else ""
            return f"bzImage-{bits}" if bits else "bzImage", banner
        if len(d) > 0x40 and d[0x38:0x3c] == b"ARM\x64":
            return "arm64-Image", banner_in(d, what, deep=False)
        if len(d) > 0x40 and (d[0x38:0x3c] == b"RSC\x05" or d[0x30:0x38] == b"RISCV\0\0\0"):
            return "riscv-Image", banner_in(d, what, deep=False)
        if len(d) > 0x30 and _u32(d, 0x24) == 0x016f2818:
            return "arm-zImage", banner_in(d, what)
        # s390's image starts with its IPL record (the channel programs a
        # boot from it runs, as file(1) knows it).
        if d[8:24] == b"\x02\x00\x00\x18\x60\x00\x00\x50\x02\x00\x00\x68\x60\x00\x00\x50":
            return "s390-image", banner_in(d, what)
        if d[:4] == b"\x7fELF":
            little = d[5] == 1
            mach = struct.unpack_from("<H" if little else ">H", d, 18)[0]
            name = ELF_MACHINES.get(mach, f"machine-{mach}")
            return f"elf-{name}-{'le' if little else 'be'}", banner_in(d, what)
        raise ImageError(f"{what} is not a kernel image: no x86 bzImage header, arm64 or RISC-V Image header, "
                         f"arm zImage magic or ELF header (give the vmlinuz, bzImage, Image or vmlinux file)")


def upstream_version(banner, release):
    """The upstream X.Y.Z a distribution's banner names, else the release's
    leading X.Y[.Z] (Debian's 6.1.0-28 ABI names no point release; its
    banner says "Debian 6.1.119-1"; Ubuntu's says "(Ubuntu 6.8.0-90.91-generic 6.8.12)")."""
    for rx in (r" Debian ([0-9]+\.[0-9]+(?:\.[0-9]+)?)-", r"\(Ubuntu [^ )]+ ([0-9]+\.[0-9]+(?:\.[0-9]+)?)\)"):
        m = re.search(rx, banner)
        if m:
            return m.group(1)
    m = re.match(r"([0-9]+\.[0-9]+(?:\.[0-9]+)?)", release)
    return m.group(1) if m else ""


def vendor_of(banner, release):
    """The distribution's name of the kernel, where its banner or release says one."""
    m = re.search(r" (Debian [0-9][^ ]*)", banner)
    if m:
        return m.group(1)
    m = re.search(r"\((Ubuntu [^ )]+)", banner)
    if m:
        return m.group(1)
    m = re.search(r"\.el([0-9]+)(_[0-9]+)?", release)
    if m:
        return f"RHEL {m.group(1)}{'.' + m.group(2)[1:] if m.group(2) else ''} {release}"
    return ""


def config_beside(path, release):
    """The configuration a distribution installs beside its image
    (/boot/config-<release> next to /boot/vmlinuz-<release>), if any."""
    d = os.path.dirname(os.path.abspath(path))
    for name in (f"config-{release}", "config"):
        f = os.path.join(d, name)
        if os.path.isfile(f):
            return f
    return ""


def config_options(path, options):
    """The options' values in a .config: y, m, a value, or n."""
    vals = {}
    with open(path, errors="surrogateescape") as f:
        for line in f.read().split("\n"):
            m = re.match(r"CONFIG_([A-Za-z0-9_]+)=(.*)", line) or re.match(r"# CONFIG_([A-Za-z0-9_]+) is not set", line)
            if m:
                vals[m.group(1)] = m.group(2) if m.lastindex == 2 else "n"
    return [f"CONFIG_{o}={vals.get(o, 'n')}" for o in options]


def is_config(path):
    try:
        with open(path, errors="surrogateescape") as f:
            return any(re.match(r"CONFIG_[A-Za-z0-9_]+=", line) for line in f.read(1 << 20).split("\n"))
    except OSError:
        return False


def unpack(plan_path):
    """The image directory a plan names, written whole (or left as it
    was): the kernel as QEMU boots it, the image's configuration (if one
    was given or found) and its timekeeping options (leap-options, as a
    build records them).  Nothing is compiled."""
    import json
    import shutil
    with open(plan_path) as f:
        p = json.load(f)
    src, info = p["tree"]["path"], p["tree"]["image"]
    imgdir, path = p["image"]["dir"], p["image"]["path"]
    im = Image(src)
    tmp = imgdir + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    with open(os.path.join(tmp, os.path.basename(path)), "wb") as f:
        f.write(im.kernel)
    if info.get("config"):
        shutil.copyfile(info["config"], os.path.join(tmp, ".config"))
        with open(os.path.join(tmp, "leap-options"), "w") as f:
            f.write("\n".join(config_options(info["config"], p["kconfig"]["options"])) + "\n")
    shutil.rmtree(imgdir, ignore_errors=True)
    os.replace(tmp, imgdir)
