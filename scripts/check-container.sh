#!/usr/bin/env bash
# Performs the Dockerfile's steps on this machine, which has no container engine (README:
# Containers; .ci/run calls it): each stage is a directory under a temporary folder standing for
# the stage's file system, the build context is a copy of the clean tree, and the final stage's
# CMD is started as a non-root user until its HEALTHCHECK command (GET /readyz) succeeds.
#
# It reads the Dockerfile rather than repeating it, so the two cannot drift apart: the subset of
# instructions it understands is listed at the top of the Dockerfile, and anything else stops it.
# What it cannot do like Docker, it does as follows:
#   - the base image is this machine (its Node must be the Dockerfile's NODE_VERSION major);
#   - an absolute path of a stage (WORKDIR, COPY destinations, VOLUME, absolute ENV values such
#     as DATA_DIR=/data) is taken below the stage's directory; RUN commands run in the stage's
#     WORKDIR (so they must use relative paths, or be marked `skip`);
#   - USER node is `node` if this machine has it, else CHECK_USER (default `nobody`);
#   - the server listens on 127.0.0.1 and a free port (as `docker run -e PORT=… -e HOST=…`).
#
# Usage: scripts/check-container.sh [--reuse-node-modules <checkout>] [--keep]
#   --reuse-node-modules  the RUN marked `deps` takes <checkout>/node_modules (hard links) after
#                         checking it matches the lockfile (`npm ls --all`), instead of installing
#                         and compiling better-sqlite3 again (about 1.5 of the 2 minutes here); CI passes the
#                         checkout its `npm ci` has just installed, on the same Node.
#   --keep                leave the temporary folder (its path is printed) for a look inside.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
REPO=$PWD
REUSE=
KEEP=0
while (($#)); do
  case $1 in
    --reuse-node-modules) REUSE=$(cd "$2" && pwd); shift 2 ;;
    --keep) KEEP=1; shift ;;
    *) echo "usage: $0 [--reuse-node-modules <checkout>] [--keep]" >&2; exit 2 ;;
  esac
done

START=$SECONDS
WORK=$(mktemp -d "${TMPDIR:-/tmp}/check-container.XXXXXX")
# The non-root user must reach the runtime stage's files below it.
chmod 755 "$WORK"
SERVER_PID=
cleanup() {
  if [[ -n $SERVER_PID ]] && kill -0 "$SERVER_PID" 2>/dev/null; then kill -KILL "$SERVER_PID" 2>/dev/null || true; fi
  if ((KEEP)); then echo "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

fail() {
  echo "check-container: $*" >&2
  exit 1
}
step() { printf '\n--- %s\n' "$*"; }

# ---------------------------------------------------------------------------------------------
# The build context: the clean tree (tracked and untracked-not-ignored files, as .ci/run copies
# it), minus what .dockerignore names (top-level names and globs: the subset it uses).
CONTEXT=$WORK/context
mkdir "$CONTEXT"
git -C "$REPO" ls-files -z --cached --others --exclude-standard |
  while IFS= read -r -d '' f; do [[ -e $f || -L $f ]] && printf '%s\0' "$f"; done |
  tar --null -T - -cf - | tar -xf - -C "$CONTEXT"
if [[ -f .dockerignore ]]; then
  while IFS= read -r pattern; do
    [[ -z $pattern || $pattern == \#* ]] && continue
    (cd "$CONTEXT" && shopt -s nullglob dotglob && for p in $pattern; do rm -rf -- "$p"; done)
  done <.dockerignore
fi

# ---------------------------------------------------------------------------------------------
# The Dockerfile, as logical lines: `\` continuations joined; comments dropped except the
# `# check-container: <word>` marks.
LINES=()
current=
while IFS= read -r line || [[ -n $line ]]; do
  if [[ -z $current && $line =~ ^[[:space:]]*# ]]; then
    [[ $line =~ ^#[[:space:]]*check-container:[[:space:]]*([a-z]+) ]] && LINES+=("#mark ${BASH_REMATCH[1]}")
    continue
  fi
  if [[ $line == *\\ ]]; then
    current+="${line%\\} "
    continue
  fi
  current+=$line
  [[ -n ${current//[[:space:]]/} ]] && LINES+=("$current")
  current=
done <Dockerfile

declare -A ARGS=()
declare -A STAGE_DIR=()
STAGE= ROOT= CWD=/ RUN_USER=root MARK=
ENV_VARS=()
VOLUMES=()
HEALTH_CMD=
CMD_JSON=

# The machine's user for the Dockerfile's USER (root stays root during the build).
map_user() {
  if [[ $1 == root || $1 == 0 ]]; then echo root
  elif id "$1" >/dev/null 2>&1; then echo "$1"
  else echo "${CHECK_USER:-nobody}"
  fi
}
in_stage() { # an image path → its place below the stage's directory
  local p=$1
  [[ $p == /* ]] || p="${CWD%/}/$p"
  printf '%s%s' "$ROOT" "$p"
}
expand_args() {
  local s=$1 k
  for k in "${!ARGS[@]}"; do s=${s//\$\{$k\}/${ARGS[$k]}}; s=${s//\$$k/${ARGS[$k]}}; done
  printf '%s' "$s"
}

for line in "${LINES[@]}"; do
  if [[ $line == '#mark '* ]]; then
    MARK=${line#\#mark }
    case $MARK in skip | deps) ;; *) fail "unknown mark: check-container: $MARK" ;; esac
    continue
  fi
  instruction=${line%%[[:space:]]*}
  rest=${line#"$instruction"}
  rest=${rest#"${rest%%[![:space:]]*}"}
  mark=$MARK
  MARK=
  if [[ $mark == skip ]]; then
    echo "skipped (marked): $line"
    continue
  fi
  case ${instruction^^} in
    ARG)
      [[ $rest =~ ^([A-Za-z_][A-Za-z0-9_]*)=(.*)$ ]] || fail "ARG without a default: $line"
      ARGS[${BASH_REMATCH[1]}]=${BASH_REMATCH[2]}
      ;;
    FROM)
      [[ $rest =~ ^([^[:space:]]+)[[:space:]]+[Aa][Ss][[:space:]]+([A-Za-z0-9_-]+)$ ]] ||
        fail "FROM needs AS <stage>: $line"
      STAGE=${BASH_REMATCH[2]}
      ROOT=$WORK/stage-$STAGE
      STAGE_DIR[$STAGE]=$ROOT
      mkdir -p "$ROOT"
      CWD=/ RUN_USER=root ENV_VARS=() VOLUMES=() HEALTH_CMD= CMD_JSON=
      step "stage $STAGE (base image $(expand_args "${BASH_REMATCH[1]}"): this machine)"
      ;;
    WORKDIR)
      [[ $rest == /* ]] && CWD=$rest || CWD="${CWD%/}/$rest"
      mkdir -p "$ROOT$CWD"
      ;;
    ENV)
      for pair in $rest; do
        [[ $pair =~ ^[A-Za-z_][A-Za-z0-9_]*=[^\"\']*$ ]] || fail "ENV takes KEY=value pairs without quotes: $line"
        ENV_VARS+=("$pair")
      done
      ;;
    USER) RUN_USER=$(map_user "$rest") ;;
    EXPOSE) ;;
    VOLUME)
      for v in $rest; do VOLUMES+=("$v"); done
      ;;
    HEALTHCHECK)
      [[ $rest =~ [[:space:]]?CMD[[:space:]]+(.*)$ ]] || fail "HEALTHCHECK without CMD: $line"
      HEALTH_CMD=${BASH_REMATCH[1]}
      ;;
    CMD)
      [[ $rest == \[* ]] || fail "CMD must be a JSON array: $line"
      CMD_JSON=$rest
      ;;
    COPY)
      read -r -a words <<<"$rest"
      from= chown=
      while [[ ${words[0]} == --* ]]; do
        case ${words[0]} in
          --from=*) from=${words[0]#--from=} ;;
          --chown=*) chown=${words[0]#--chown=} ;;
          *) fail "COPY option not supported: ${words[0]}" ;;
        esac
        words=("${words[@]:1}")
      done
      dest=${words[-1]}
      sources=("${words[@]:0:${#words[@]}-1}")
      target=$(in_stage "$dest")
      into_dir=0
      [[ $dest == */ || $dest == . || ${#sources[@]} -gt 1 ]] && into_dir=1
      for src in "${sources[@]}"; do
        if [[ -n $from ]]; then
          [[ -n ${STAGE_DIR[$from]:-} ]] || fail "COPY --from an unknown stage: $line"
          path=${STAGE_DIR[$from]}$src
        else
          path=$CONTEXT/$src
        fi
        [[ -e $path ]] || fail "COPY: $src does not exist: $line"
        if [[ -d $path ]]; then
          mkdir -p "$target"
          cp -a "$path/." "$target/"
        elif ((into_dir)); then
          mkdir -p "$target"
          cp -a "$path" "$target/"
        else
          mkdir -p "$(dirname "$target")"
          cp -a "$path" "$target"
        fi
      done
      if [[ -n $chown ]]; then chown -R "$(map_user "${chown%%:*}")" "$target"; fi
      ;;
    RUN)
      [[ $RUN_USER == root ]] || fail "RUN after USER is not supported: $line"
      if [[ $mark == deps && -n $REUSE ]]; then
        echo "RUN $rest"
        echo "  → reusing $REUSE/node_modules (hard links), checked against the lockfile with npm ls"
        cp -al "$REUSE/node_modules" "$ROOT$CWD/node_modules"
        (cd "$ROOT$CWD" && npm ls --all >/dev/null) || fail "$REUSE/node_modules does not match the lockfile"
        continue
      fi
      echo "RUN $rest"
      T=$SECONDS
      (cd "$ROOT$CWD" && env "${ENV_VARS[@]}" bash -euo pipefail -c "$rest") || fail "RUN failed: $rest"
      echo "  ($((SECONDS - T)) s)"
      ;;
    *) fail "instruction not supported by the check: $line" ;;
  esac
done

# ---------------------------------------------------------------------------------------------
# The final stage, run as its container would be.
step "run stage $STAGE"
[[ -n $CMD_JSON && -n $HEALTH_CMD ]] || fail "the last stage needs CMD and HEALTHCHECK"
[[ $RUN_USER != root ]] || fail "the last stage must set a USER that is not root"
want=${ARGS[NODE_VERSION]:-}
have=$(node -p 'process.versions.node.split(".")[0]')
[[ -z $want || $want == "$have" ]] || fail "the Dockerfile's NODE_VERSION is $want, this machine's Node is $have"
uid=$(id -u "$RUN_USER")
gid=$(id -g "$RUN_USER")
((uid != 0)) || fail "USER maps to root"

# Only production dependencies: no devDependency of package.json may be installed.
dev_found=$(cd "$ROOT$CWD" && node -e '
  const deps = Object.keys(require("./package.json").devDependencies ?? {});
  console.log(deps.filter((d) => require("fs").existsSync("node_modules/" + d)).join(" "))')
[[ -z $dev_found ]] || fail "the runtime stage has dev dependencies: $dev_found"

for v in "${VOLUMES[@]}"; do
  mkdir -p "$ROOT$v"
  chown "$uid:$gid" "$ROOT$v"
  chmod 700 "$ROOT$v"
done
RUN_ENV=()
for pair in "${ENV_VARS[@]}"; do
  key=${pair%%=*} value=${pair#*=}
  [[ $value == /* ]] && value=$ROOT$value
  RUN_ENV+=("$key=$value")
done
PORT=$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => {
  console.log(s.address().port); s.close(); })')
HOME_DIR=$WORK/home
mkdir -p "$HOME_DIR" && chown "$uid:$gid" "$HOME_DIR"
RUN_ENV+=("PORT=$PORT" "HOST=127.0.0.1" "HOME=$HOME_DIR" "PATH=$PATH")
mapfile -t CMD < <(node -e 'for (const a of JSON.parse(process.argv[1])) console.log(a)' "$CMD_JSON")
as_user() { setpriv --reuid="$uid" --regid="$gid" --clear-groups env -i "${RUN_ENV[@]}" "$@"; }

echo "as $RUN_USER (uid $uid): ${CMD[*]}  (in $ROOT$CWD, PORT=$PORT)"
(cd "$ROOT$CWD" && exec setpriv --reuid="$uid" --regid="$gid" --clear-groups env -i "${RUN_ENV[@]}" "${CMD[@]}") \
  >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
healthy=0
for _ in $(seq 1 120); do
  kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/server.log"; fail "the server exited before it was healthy"; }
  if (cd "$ROOT$CWD" && as_user bash -c "$HEALTH_CMD") >/dev/null 2>&1; then healthy=1; break; fi
  sleep 0.5
done
((healthy)) || { cat "$WORK/server.log"; fail "HEALTHCHECK did not pass within 60 s"; }
server_uid=$(awk '/^Uid:/ { print $2 }' "/proc/$SERVER_PID/status")
[[ $server_uid == "$uid" ]] || fail "the server runs as uid $server_uid, not $uid"
echo "HEALTHCHECK passed: GET /readyz answers $(node -e "fetch('http://127.0.0.1:$PORT/readyz')
  .then(async (r) => console.log(r.status, await r.text()))")"
kill -TERM "$SERVER_PID"
code=0
wait "$SERVER_PID" || code=$?
SERVER_PID=
((code == 0)) || { cat "$WORK/server.log"; fail "the server exited with $code after SIGTERM"; }
echo "stopped cleanly; check-container passed in $((SECONDS - START)) s"
