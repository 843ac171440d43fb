// `npm test`'s pretest step: the suites drive Debian's Chromium, check reprojection against PROJ's
// cs2cs, read exports and services with GDAL, OWSLib and QGIS, compare maps with MapServer, and reach a PostgreSQL server and an MQTT broker. What is missing
// is installed from Debian's packages when this runs as root with apt-get; otherwise it stops at
// once with the exact command to run. SKIP_TEST_PREREQS=1 skips the check.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';

if (process.env.SKIP_TEST_PREREQS === '1') process.exit(0);

const has = (cmd) => spawnSync('/bin/sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
const works = (cmd, args) => spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;

/** What the suites need, each with the Debian packages that provide it. */
const NEEDS = [
  {
    what: 'Chromium (browser suites)',
    ok: () => existsSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'),
    packages: ['chromium'],
  },
  {
    what: 'PROJ cs2cs and projinfo (reprojection suites)',
    ok: () => has('cs2cs') && has('projinfo'),
    packages: ['proj-bin', 'proj-data'],
  },
  {
    what: 'GDAL ogrinfo and its Python utilities (export suites)',
    ok: () => has('ogrinfo') && works('/usr/bin/python3', ['-c', 'import osgeo_utils']),
    packages: ['gdal-bin', 'python3-gdal'],
  },
  {
    what: "OWSLib's ISO 19139 parser (metadata export suites)",
    ok: () => works('/usr/bin/python3', ['-c', 'import owslib.iso']),
    packages: ['python3-owslib'],
  },
  {
    what: 'QGIS 3 with its Python bindings and data providers (layer services suites, headless)',
    ok: () => works('/usr/bin/python3', ['-c', 'import qgis.core']),
    packages: ['python3-qgis', 'qgis-providers'],
  },
  {
    what: 'MapServer (the layer services suites compare maps with it)',
    ok: () => has('mapserv'),
    packages: ['mapserver-bin'],
  },
  { what: 'a PostgreSQL server (scale-out suites)', ok: () => has('pg_ctlcluster'), packages: ['postgresql'] },
  { what: 'the Mosquitto MQTT broker (live dataset suites)', ok: () => has('mosquitto'), packages: ['mosquitto'] },
];

const reachable = (port) =>
  new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

const isRoot = process.getuid?.() === 0;
const missing = NEEDS.filter((n) => !n.ok());
if (missing.length) {
  const packages = missing.flatMap((n) => n.packages);
  const command = `apt-get update && apt-get install -y ${packages.join(' ')}`;
  if (!isRoot || !has('apt-get')) {
    console.error(`The tests need ${missing.map((n) => n.what).join(', ')}. Install them with:\n\n  sudo ${command}\n`);
    process.exit(1);
  }
  console.log(`Installing what the tests need from Debian: ${packages.join(' ')}`);
  execFileSync('sh', ['-c', command], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
}

/** Services the suites talk to: started when installed but not running (as root), else named. */
const SERVICES = [
  {
    what: 'PostgreSQL on 127.0.0.1:5432',
    port: 5432,
    // The suites connect as postgres over loopback without a password, as on the developers' machines.
    start:
      'v=$(ls /etc/postgresql | sort -V | tail -n 1); hba=/etc/postgresql/$v/main/pg_hba.conf; ' +
      "grep -q '^host all all 127.0.0.1/32 trust' $hba || sed -i '1i host all all 127.0.0.1/32 trust\\nhost all all ::1/128 trust' $hba; " +
      'pg_ctlcluster --skip-systemctl-redirect $v main start || pg_ctlcluster --skip-systemctl-redirect $v main reload; ' +
      'for i in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done',
  },
  { what: 'Mosquitto on 127.0.0.1:1883', port: 1883, start: 'mosquitto -d -c /etc/mosquitto/mosquitto.conf' },
];
for (const s of SERVICES) {
  if (await reachable(s.port)) continue;
  if (!isRoot) {
    console.error(`The tests need ${s.what}. Start it with:\n\n  sudo sh -c '${s.start}'\n`);
    process.exit(1);
  }
  console.log(`Starting ${s.what}`);
  execFileSync('sh', ['-c', s.start], { stdio: 'inherit' });
}
