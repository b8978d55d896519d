#!/usr/bin/env bash
# Install (or uninstall) Mandala Companion as a systemd service on Raspberry Pi OS
# (Debian 12 "bookworm" or 13 "trixie"). Run it as root from a checkout:
#
#     sudo systemd/install.sh              # install or upgrade; safe to run again
#     sudo systemd/install.sh --dry-run    # print every step, change nothing
#     sudo systemd/install.sh --uninstall  # stop and remove the service and its venv;
#                                          # keeps the games, the config and the user
#     sudo systemd/install.sh --uninstall --purge   # ...and those too
#
# Options: --port N (default 80; the panel is then http://<hostname>.local/),
#          --root DIR (install into DIR instead of /, for tests and image staging;
#          also MANDALA_ROOT), --source DIR (the checkout to install; default: this one),
#          --kiosk-user NAME (the desktop user the kiosk runs as; default: the user of
#          UID 1000, Raspberry Pi OS's first user). The kiosk unit is installed disabled.
# The commands it runs can be replaced (tests use recording stubs): MANDALA_APT_GET,
# MANDALA_SYSTEMCTL, MANDALA_USERADD, MANDALA_USERMOD, MANDALA_USERDEL, MANDALA_GROUPADD,
# MANDALA_PYTHON (makes the venv), MANDALA_PIP (replaces "<venv>/bin/python -m pip").
# The board is read from /proc/device-tree/model (MANDALA_MODEL_FILE for another file) and
# the CPU from uname -m (MANDALA_MACHINE): 32-bit Pi OS is refused, a Pi 5 whose pin map
# says leds.driver = "pi5" gets the "pi5" extra, and every Pi 5 a udev rule for /dev/pio0.
#
# Every step is printed as "+ command" before it runs; --dry-run prints the same lines.
set -euo pipefail

SERVICE=mandala
SERVICE_USER=mandala
PACKAGES=(
    python3-venv       # the virtual environment (with ensurepip)
    python3-pip
    python3-lgpio      # the pin backend; from Raspberry Pi OS's archive, seen by the venv
    avahi-daemon       # mDNS: the panel answers at http://<hostname>.local/
    dnsmasq-base       # DHCP and DNS of NetworkManager's shared mode (the box's own Wi-Fi)
)
# Nothing is compiled: the Python libraries come from the package index as wheels only.
PIP_ONLY_WHEELS=(--only-binary=:all:)
GROUPS_NEEDED=(gpio spi)

usage() {
    sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'
}

ROOT=${MANDALA_ROOT:-/}
SOURCE=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PORT=80
ACTION=install
PURGE=0
DRY_RUN=0
KIOSK_USER=
while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --uninstall) ACTION=uninstall ;;
        --purge) PURGE=1 ;;
        --root) [ $# -ge 2 ] || { echo "install.sh: --root needs a directory" >&2; exit 2; }
                ROOT=$2; shift ;;
        --root=*) ROOT=${1#--root=} ;;
        --source) [ $# -ge 2 ] || { echo "install.sh: --source needs a directory" >&2; exit 2; }
                  SOURCE=$2; shift ;;
        --source=*) SOURCE=${1#--source=} ;;
        --port) [ $# -ge 2 ] || { echo "install.sh: --port needs a number" >&2; exit 2; }
                PORT=$2; shift ;;
        --port=*) PORT=${1#--port=} ;;
        --kiosk-user) [ $# -ge 2 ] || { echo "install.sh: --kiosk-user needs a name" >&2; exit 2; }
                      KIOSK_USER=$2; shift ;;
        --kiosk-user=*) KIOSK_USER=${1#--kiosk-user=} ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option: $1 (try --help)" >&2; exit 2 ;;
    esac
    shift
done
if [ "$PURGE" = 1 ] && [ "$ACTION" != uninstall ]; then
    echo "install.sh: --purge only goes with --uninstall" >&2; exit 2
fi
if ! [[ "$PORT" =~ ^[0-9]+$ ]] || [ "$PORT" -lt 1 ] || [ "$PORT" -gt 65535 ]; then
    echo "install.sh: --port: not a port number: $PORT" >&2; exit 2
fi
if [ ! -d "$ROOT" ]; then
    echo "install.sh: --root: no such directory: $ROOT" >&2; exit 2
fi
ROOT=$(cd "$ROOT" && pwd)
if [ ! -f "$SOURCE/pyproject.toml" ] || [ ! -f "$SOURCE/systemd/$SERVICE.service" ]; then
    echo "install.sh: --source: not a Mandala Companion checkout: $SOURCE" >&2; exit 2
fi
if [ "$DRY_RUN" = 0 ] && [ "$ROOT" = / ] && [ "$(id -u)" != 0 ]; then
    echo "install.sh: run it as root (sudo), or try --dry-run" >&2; exit 2
fi

# Paths as the running system sees them, and as this script writes them.
PREFIX=/opt/mandala
VENV=$PREFIX/venv
CONFIG_DIR=/etc/mandala
CONFIG=$CONFIG_DIR/config.toml
DATA_DIR=/var/lib/mandala
UNIT=/etc/systemd/system/$SERVICE.service
# The updater of releases staged from the panel (companion/box/update.py): the path unit
# starts the one-shot service when the panel writes /var/lib/mandala/updates/request.json.
UPDATE_UNITS=("$SERVICE-update.service" "$SERVICE-update.path")
# The kiosk (optional, installed disabled): Chromium showing the table view on the Pi's display.
KIOSK_UNIT=/etc/systemd/system/$SERVICE-kiosk.service
KIOSK_DROPIN=/etc/systemd/system/$SERVICE-kiosk.service.d
KIOSK_PROGRAM=$PREFIX/kiosk
PIO_RULE=/etc/udev/rules.d/60-mandala-pio.rules
NM_RULE=/etc/polkit-1/rules.d/50-mandala-wifi.rules
CAPTIVE_DNS=/etc/NetworkManager/dnsmasq-shared.d/mandala-captive.conf
at() { if [ "$ROOT" = / ]; then printf '%s' "$1"; else printf '%s%s' "$ROOT" "$1"; fi; }

APT_GET=${MANDALA_APT_GET:-apt-get}
SYSTEMCTL=${MANDALA_SYSTEMCTL:-systemctl}
USERADD=${MANDALA_USERADD:-useradd}
USERMOD=${MANDALA_USERMOD:-usermod}
USERDEL=${MANDALA_USERDEL:-userdel}
GROUPADD=${MANDALA_GROUPADD:-groupadd}
PYTHON=${MANDALA_PYTHON:-/usr/bin/python3}
# User and group tools work inside --root; systemctl enable/disable too.
ACCOUNT_ROOT=()
SYSTEMCTL_ROOT=()
if [ "$ROOT" != / ]; then
    ACCOUNT_ROOT=(--root "$ROOT")
    SYSTEMCTL_ROOT=(--root="$ROOT")
fi

say() { printf '%s\n' "$*"; }
# Print a step, then run it (unless --dry-run).
run() {
    printf '+'; printf ' %q' "$@"; printf '\n'
    if [ "$DRY_RUN" = 0 ]; then "$@"; fi
}
# Print a step that writes a file from standard input, then write it (unless --dry-run).
write_file() {
    local path=$1 mode=$2 content
    content=$(cat)
    printf '+ write %q (mode %s)\n' "$path" "$mode"
    if [ "$DRY_RUN" = 0 ]; then
        printf '%s\n' "$content" > "$path.tmp"
        chmod "$mode" "$path.tmp"
        mv "$path.tmp" "$path"
    fi
}
has_user() { grep -q "^$1:" "$(at /etc/passwd)" 2>/dev/null; }
# The desktop user the kiosk runs as: --kiosk-user, else the user of UID 1000 (if any).
kiosk_user() {
    if [ -n "$KIOSK_USER" ]; then printf '%s' "$KIOSK_USER"; return; fi
    awk -F: '$3 == 1000 { print $1; exit }' "$(at /etc/passwd)" 2>/dev/null || true
}
has_group() { grep -q "^$1:" "$(at /etc/group)" 2>/dev/null; }
in_group() {
    local line
    line=$(grep "^$2:" "$(at /etc/group)" 2>/dev/null || true)
    [[ ",${line##*:}," == *",$1,"* ]]
}
# The pin map in use: the config's pin_map if it names one, else the bundled map.
pin_map_file() {
    "$PYTHON" - "$(at "$CONFIG")" "$SOURCE/hardware/pins.toml" <<'PY' 2>/dev/null \
        || echo "$SOURCE/hardware/pins.toml"
import sys, tomllib
try:
    with open(sys.argv[1], "rb") as f:
        print(tomllib.load(f).get("pin_map") or sys.argv[2])
except OSError:
    print(sys.argv[2])
PY
}
# One [leds] value of the pin map in use ($1 the key, $2 the default), as TOML spells it.
leds_value() {
    "$PYTHON" - "$(pin_map_file)" "$1" "$2" <<'PY' 2>/dev/null || echo "$2"
import sys, tomllib
with open(sys.argv[1], "rb") as f:
    value = tomllib.load(f).get("leds", {}).get(sys.argv[2], sys.argv[3])
print(str(value).lower() if isinstance(value, bool) else value)
PY
}
# The map's [leds] spi_chip_selects (false = GPIO7/8 are freed for encoders).
spi_chip_selects() { leds_value spi_chip_selects true; }
# The board's model line, e.g. "Raspberry Pi 4 Model B Rev 1.4" (empty when unknown).
board_model() {
    local file
    for file in "${MANDALA_MODEL_FILE:-$(at /proc/device-tree/model)}" \
        "$(at /sys/firmware/devicetree/base/model)"; do
        if [ -r "$file" ]; then tr -d '\0' < "$file"; return; fi
    done
}
is_pi5() { [[ "$(board_model)" =~ Raspberry\ Pi\ (5|500)|Compute\ Module\ 5 ]]; }
# The pip extra this board needs (README: "On the Pi").
pi_extra() {
    if is_pi5 && [ "$(leds_value driver neopixel-spi)" = pi5 ]; then echo pi5; else echo pi; fi
}
boot_config() {
    local candidate
    for candidate in /boot/firmware/config.txt /boot/config.txt; do
        if [ -f "$(at "$candidate")" ]; then printf '%s' "$candidate"; return; fi
    done
}

install_service() {
    say "Installing Mandala Companion from $SOURCE into ${ROOT%/}/ (port $PORT)"
    local machine extra model
    machine=${MANDALA_MACHINE:-$(uname -m)}
    case "$machine" in
        armv6l|armv7l|armhf|arm)
            echo "install.sh: this is a 32-bit OS ($machine): flash Raspberry Pi OS Lite" \
                "(64-bit); the LED libraries have no 32-bit wheels and nothing is compiled" >&2
            exit 2 ;;
    esac
    model=$(board_model)
    extra=$(pi_extra)
    say "board: ${model:-unknown (no /proc/device-tree/model)}; Python extra: [$extra]"

    say "== system packages"
    run "$APT_GET" update
    run env DEBIAN_FRONTEND=noninteractive "$APT_GET" install -y --no-install-recommends \
        "${PACKAGES[@]}"

    say "== the service user and its groups"
    local group
    for group in "${GROUPS_NEEDED[@]}"; do
        if has_group "$group"; then
            say "group $group exists"
        else
            run "$GROUPADD" "${ACCOUNT_ROOT[@]}" --system "$group"
        fi
    done
    if has_user "$SERVICE_USER"; then
        say "user $SERVICE_USER exists"
        local missing=()
        for group in "${GROUPS_NEEDED[@]}"; do
            in_group "$SERVICE_USER" "$group" || missing+=("$group")
        done
        if [ ${#missing[@]} -gt 0 ]; then
            local joined
            joined=$(IFS=,; printf '%s' "${missing[*]}")
            run "$USERMOD" "${ACCOUNT_ROOT[@]}" --append --groups "$joined" "$SERVICE_USER"
        fi
    else
        run "$USERADD" "${ACCOUNT_ROOT[@]}" --system --user-group \
            --home-dir "$DATA_DIR" --no-create-home --shell /usr/sbin/nologin \
            --groups "$(IFS=,; printf '%s' "${GROUPS_NEEDED[*]}")" \
            --comment "Mandala Companion" "$SERVICE_USER"
    fi

    say "== directories"
    run install -d -m 0755 "$(at "$PREFIX")" "$(at "$CONFIG_DIR")" \
        "$(at /etc/systemd/system)"

    say "== the virtual environment (sees python3-lgpio through --system-site-packages)"
    local cfg
    cfg=$(at "$VENV/pyvenv.cfg")
    if [ -x "$(at "$VENV/bin/python")" ] \
        && grep -q '^include-system-site-packages = true' "$cfg" 2>/dev/null; then
        say "venv $VENV exists"
    else
        run "$PYTHON" -m venv --clear --system-site-packages "$(at "$VENV")"
    fi
    # A release installed from the panel ran ahead of the venv's (PYTHONPATH=current);
    # from now on the checkout's release runs.
    if [ -L "$(at "$PREFIX/current")" ] || [ -e "$(at "$PREFIX/releases")" ]; then
        say "releases installed from the panel are replaced by this checkout's"
        run rm -rf "$(at "$PREFIX/current")" "$(at "$PREFIX/releases")"
    fi
    if [ -n "${MANDALA_PIP:-}" ]; then
        run "$MANDALA_PIP" install --upgrade --disable-pip-version-check \
            "${PIP_ONLY_WHEELS[@]}" "$SOURCE[$extra]"
    else
        run "$(at "$VENV/bin/python")" -m pip install --upgrade --disable-pip-version-check \
            "${PIP_ONLY_WHEELS[@]}" "$SOURCE[$extra]"
    fi

    if is_pi5; then
        say "== /dev/pio0 for the Pi 5's LED driver (the gpio group may use it)"
        run install -d -m 0755 "$(at /etc/udev/rules.d)"
        write_file "$(at "$PIO_RULE")" 0644 <<'RULE'
# Mandala Companion: the Pi 5's PIO device (the "pi5" LED driver), for the gpio group.
SUBSYSTEM=="*-pio", GROUP="gpio", MODE="0660"
RULE
    fi

    say "== Wi-Fi: the service may change it; on its own access point every name is the box"
    run install -d -m 0755 "$(at /etc/polkit-1/rules.d)" \
        "$(at /etc/NetworkManager/dnsmasq-shared.d)"
    write_file "$(at "$NM_RULE")" 0644 <<'RULE'
// Mandala Companion: the service user may scan, join and forget Wi-Fi networks and open the
// box's own access point through NetworkManager (companion/box/wifi.py), without a login.
polkit.addRule(function (action, subject) {
    var allowed = [
        "org.freedesktop.NetworkManager.network-control",
        "org.freedesktop.NetworkManager.settings.modify.system",
        "org.freedesktop.NetworkManager.wifi.scan",
        "org.freedesktop.NetworkManager.wifi.share.protected",
        "org.freedesktop.NetworkManager.enable-disable-wifi"
    ];
    if (subject.user == "mandala" && allowed.indexOf(action.id) >= 0) {
        return polkit.Result.YES;
    }
});
RULE
    write_file "$(at "$CAPTIVE_DNS")" 0644 <<'DNS'
# Mandala Companion: while the box is its own access point (NetworkManager's shared mode,
# 10.42.0.1), every name a phone looks up is the box, so its captive-portal check reaches
# the panel, which sends it to the Wi-Fi page. Other networks are not affected.
address=/#/10.42.0.1
DNS

    say "== the config file"
    if [ -f "$(at "$CONFIG")" ]; then
        say "config $CONFIG exists, kept as it is"
    else
        write_file "$(at "$CONFIG")" 0644 <<EOF
# Mandala Companion on this Raspberry Pi, read by "mandala serve --config $CONFIG".
# Options given on the command line win. Edit, then: sudo systemctl restart $SERVICE
host = "0.0.0.0"      # every network interface: phones on the same network see the panel
port = $PORT
data = "$DATA_DIR"
hardware = "lgpio"    # the real pins (lgpio; "rpigpio" on old images); never emulated here
board = "reference"   # the board whose spokes the rings count (bundled, or in data/boards/)
# pin_map = "/etc/mandala/pins.toml"   # your own pin map (default: the bundled one)
# led_map = "/etc/mandala/leds.toml"   # your own LED map (default: the bundled one)
EOF
    fi

    say "== SPI for the LED strip"
    local boot
    boot=$(boot_config)
    if [ -z "$boot" ]; then
        say "no /boot/firmware/config.txt: enable SPI by hand (raspi-config, Interface Options)"
    else
        local lines=(dtparam=spi=on)
        if [ "$(spi_chip_selects)" = false ]; then
            lines+=(dtoverlay=spi0-0cs)  # frees GPIO7 and GPIO8 for an encoder
        fi
        local line
        for line in "${lines[@]}"; do
            if grep -qx "$line" "$(at "$boot")"; then
                say "$boot has $line"
            else
                printf '+ append %q to %q (takes effect after a reboot)\n' "$line" "$(at "$boot")"
                if [ "$DRY_RUN" = 0 ]; then
                    # A file without a final newline must not swallow the new line.
                    if [ -n "$(tail -c 1 "$(at "$boot")")" ]; then echo >> "$(at "$boot")"; fi
                    printf '%s\n' "$line" >> "$(at "$boot")"
                fi
            fi
        done
    fi

    say "== the systemd units (the service, and the updater of releases staged from the panel)"
    run install -m 0644 "$SOURCE/systemd/$SERVICE.service" "$(at "$UNIT")"
    local unit
    for unit in "${UPDATE_UNITS[@]}"; do
        run install -m 0644 "$SOURCE/systemd/$unit" "$(at "/etc/systemd/system/$unit")"
    done
    install_kiosk
    run "$SYSTEMCTL" daemon-reload
    run "$SYSTEMCTL" "${SYSTEMCTL_ROOT[@]}" enable "$SERVICE.service"
    run "$SYSTEMCTL" "${SYSTEMCTL_ROOT[@]}" enable "$SERVICE-update.path"
    run "$SYSTEMCTL" "${SYSTEMCTL_ROOT[@]}" enable "$SERVICE-update.service"  # at boot
    run "$SYSTEMCTL" restart "$SERVICE.service"
    run "$SYSTEMCTL" restart "$SERVICE-update.path"

    local host
    host=$(hostname 2>/dev/null || echo raspberrypi)
    local url="http://$host.local/"
    [ "$PORT" = 80 ] || url="http://$host.local:$PORT/"
    say "Done. The panel: $url   Logs: journalctl -u $SERVICE -f"
}

# The kiosk's unit and program, and the drop-in naming its user and the table view's address;
# never enabled here (README "Kiosk mode").
install_kiosk() {
    say "== the kiosk (installed disabled: sudo systemctl enable --now $SERVICE-kiosk)"
    run install -m 0755 "$SOURCE/systemd/$SERVICE-kiosk" "$(at "$KIOSK_PROGRAM")"
    run install -m 0644 "$SOURCE/systemd/$SERVICE-kiosk.service" "$(at "$KIOSK_UNIT")"
    local user url=http://127.0.0.1/table
    [ "$PORT" = 80 ] || url="http://127.0.0.1:$PORT/table"
    user=$(kiosk_user)
    if [ -z "$user" ]; then
        say "no desktop user (UID 1000): the kiosk needs one (--kiosk-user NAME)"
        return
    fi
    run install -d -m 0755 "$(at "$KIOSK_DROPIN")"
    write_file "$(at "$KIOSK_DROPIN/user.conf")" 0644 <<EOF
# Written by systemd/install.sh: the desktop user the kiosk runs as, and the table view.
[Service]
User=$user
Environment=MANDALA_KIOSK_URL=$url
EOF
}

uninstall_service() {
    say "Uninstalling Mandala Companion from ${ROOT%/}/"
    say "== the systemd unit"
    if [ -f "$(at "$UNIT")" ]; then
        run "$SYSTEMCTL" stop "$SERVICE.service"
        run "$SYSTEMCTL" "${SYSTEMCTL_ROOT[@]}" disable "$SERVICE.service"
        run rm -f "$(at "$UNIT")"
        if [ -f "$(at "/etc/systemd/system/$SERVICE-update.path")" ]; then
            run "$SYSTEMCTL" stop "$SERVICE-update.path"
            run "$SYSTEMCTL" "${SYSTEMCTL_ROOT[@]}" disable "$SERVICE-update.path"
            run "$SYSTEMCTL" "${SYSTEMCTL_ROOT[@]}" disable "$SERVICE-update.service"
            run rm -f "$(at "/etc/systemd/system/$SERVICE-update.path")" \
                "$(at "/etc/systemd/system/$SERVICE-update.service")"
        fi
        if [ -f "$(at "$KIOSK_UNIT")" ]; then
            run "$SYSTEMCTL" stop "$SERVICE-kiosk.service"
            run "$SYSTEMCTL" "${SYSTEMCTL_ROOT[@]}" disable "$SERVICE-kiosk.service"
            run rm -rf "$(at "$KIOSK_UNIT")" "$(at "$KIOSK_DROPIN")"
        fi
        run "$SYSTEMCTL" daemon-reload
    else
        say "no unit $UNIT"
    fi
    local extra_file
    for extra_file in "$PIO_RULE" "$NM_RULE" "$CAPTIVE_DNS"; do
        if [ -f "$(at "$extra_file")" ]; then
            run rm -f "$(at "$extra_file")"
        fi
    done
    say "== the program"
    if [ -e "$(at "$PREFIX")" ]; then
        run rm -rf "$(at "$PREFIX")"
    else
        say "no $PREFIX"
    fi
    if [ "$PURGE" = 1 ]; then
        say "== the games, the config and the user (--purge)"
        local dir
        for dir in "$DATA_DIR" "$CONFIG_DIR"; do
            if [ -e "$(at "$dir")" ]; then run rm -rf "$(at "$dir")"; else say "no $dir"; fi
        done
        if has_user "$SERVICE_USER"; then
            run "$USERDEL" "${ACCOUNT_ROOT[@]}" "$SERVICE_USER"
        else
            say "no user $SERVICE_USER"
        fi
    else
        say "kept: the games in $DATA_DIR, the config $CONFIG, the user $SERVICE_USER" \
            "(--purge removes them)"
    fi
    say "kept: the system packages (${PACKAGES[*]}) and the SPI lines in the boot config"
    say "Done."
}

if [ "$ACTION" = install ]; then install_service; else uninstall_service; fi
