# Sourced by the peer scripts: need_debs PACKAGE... installs the Debian packages that are
# missing (apt-get update first), as root or through sudo; prints what it installs on stderr.
need_debs() {
    local need=()
    for package in "$@"; do
        dpkg -s "$package" > /dev/null 2>&1 || need+=("$package")
    done
    [ ${#need[@]} -eq 0 ] && return 0
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo=sudo
    echo "== apt-get install ${need[*]}" >&2
    $sudo apt-get update -qq > /dev/null
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${need[@]}" > /dev/null
}
