# Sourced by scripts/start.sh and scripts/test.sh (POSIX sh): say each step, and install the
# project into .venv only when pyproject.toml or the extras asked for changed since the last
# install of that set (a stamp file per set in .venv).

step() {
    printf '==> %s\n' "$*"
}

# venv_install SPEC: pip install --editable SPEC (".", ".[test]", ".[test,postgres]"...).
venv_install() {
    spec=$1
    if [ ! -x .venv/bin/python ]; then
        step "Creating the virtual environment .venv (and updating its pip)"
        python3 -m venv .venv
        .venv/bin/python -m pip install --upgrade pip
    fi
    stamp=".venv/.installed-$(printf '%s' "$spec" | tr -c 'A-Za-z0-9' '_')"
    digest=$(.venv/bin/python -c \
        'import hashlib; print(hashlib.sha256(open("pyproject.toml", "rb").read()).hexdigest())')
    if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$digest" ]; then
        step "Dependencies of $spec up to date (pyproject.toml unchanged since they were installed)"
        return 0
    fi
    step "Installing the club with $spec into .venv"
    .venv/bin/python -m pip install --editable "$spec"
    printf '%s\n' "$digest" >"$stamp"
}
