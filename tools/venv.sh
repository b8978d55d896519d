# shellcheck shell=bash
# Sourced by run.sh, test.sh and .ci/run, never run on its own: checks that the Debian
# packages a command needs are installed BEFORE anything is created, and makes (or repairs)
# the checkout's .venv. The two apt-get lines are the README's, word for word
# (tests/test_scripts.py holds them together; .ci/run installs what the README's lines name).

RUN_PACKAGES="python3-venv"
TEST_PACKAGES="python3-venv chromium systemd libatomic1 e2fsprogs strace zbar-tools espeak-ng"

# check_needs run|test: on a miss, print one line naming the apt-get line that fixes
# everything missing for that command, and exit 1.
check_needs() {
    local packages=$RUN_PACKAGES missing=()
    [ "$1" = test ] && packages=$TEST_PACKAGES
    if ! command -v python3 >/dev/null; then
        missing+=("python3")
    elif ! python3 -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        echo "$0: needs Python 3.11 or later (Debian 12 or later); python3 is $(python3 -V 2>&1)" >&2
        exit 1
    elif ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
        missing+=("Python's venv module")
    fi
    if [ "$1" = test ]; then
        # The browser tests launch /usr/bin/chromium through Playwright, whose driver needs
        # libatomic.so.1; the unit-file tests run systemd-analyze and systemctl; the
        # read-only-database tests make a file immutable with chattr (in every Debian but
        # the smallest roots); the SD-card tests count fsyncs with strace; the join tests
        # decode the QR codes with zbarimg; the speaker's tests run espeak-ng.
        [ -x /usr/bin/chromium ] || missing+=("/usr/bin/chromium")
        if command -v python3 >/dev/null \
            && ! python3 -c 'import ctypes; ctypes.CDLL("libatomic.so.1")' 2>/dev/null; then
            missing+=("libatomic.so.1")
        fi
        command -v systemd-analyze >/dev/null || missing+=("systemd-analyze")
        command -v chattr >/dev/null || missing+=("chattr")
        command -v strace >/dev/null || missing+=("strace")
        command -v zbarimg >/dev/null || missing+=("zbarimg")
        command -v espeak-ng >/dev/null || missing+=("espeak-ng")
    fi
    if [ ${#missing[@]} -gt 0 ]; then
        local sudo="sudo " list
        [ "$(id -u)" = 0 ] && sudo=""
        list=$(printf '%s, ' "${missing[@]}")
        echo "$0: missing ${list%, }; install with: ${sudo}apt-get install $packages" >&2
        exit 1
    fi
}

# venv_is_whole: .venv has a Python that runs and a pip it can import. A first run that
# failed half-way (no ensurepip, an interrupted copy) leaves a .venv without one of them.
venv_is_whole() {
    [ -x .venv/bin/python ] && .venv/bin/python -c 'import pip' 2>/dev/null
}

# make_venv: make .venv, or make it again when it is not whole; never leave half of one.
make_venv() {
    venv_is_whole && return 0
    rm -rf .venv
    if ! python3 -m venv .venv || ! venv_is_whole; then
        rm -rf .venv
        echo "$0: could not make the virtual environment .venv (see above); nothing was left behind" >&2
        exit 1
    fi
}

# install_once EXTRA SPEC: pip install -e SPEC into .venv once per version of pyproject.toml
# (EXTRA names the stamp); code changes need no reinstall.
install_once() {
    local stamp
    stamp=".venv/.installed-$1-$(sha256sum pyproject.toml | cut -c1-16)"
    if [ ! -e "$stamp" ]; then
        .venv/bin/python -m pip install --quiet --disable-pip-version-check -e "$2"
        touch "$stamp"
    fi
}
