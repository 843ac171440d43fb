/**
 * The peer of bench/services: MapServer 8 as it is deployed in production — Debian's cgi-mapserver
 * run as FastCGI processes behind Debian's lighttpd — serving WMS and WFS from a PostGIS table that
 * ogr2ogr loaded. The mapfile draws the same style the Werkbank layer has.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';

export interface MapServerPeer {
  /** The service address: append `?SERVICE=WMS&...`. */
  url: string;
  stop(): Promise<void>;
}

/** A free loopback port. */
async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/** The PostGIS connection string of a libpq URL, as a mapfile's CONNECTION. */
function connection(url: string): string {
  const u = new URL(url);
  const db = decodeURIComponent(u.pathname.replace(/^\//, ''));
  return `host=${u.hostname || '127.0.0.1'} port=${u.port || '5432'} dbname=${db} user=${decodeURIComponent(u.username || 'postgres')}`;
}

/** Style of the benched polygons, written the same way in the Werkbank layer and the mapfile. */
export const POLYGON_STYLE = { fill: '#4f9d69', fillOpacity: 0.8, stroke: '#1d4d2b', strokeWidth: 1 };

const hex = (c: string) => [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16)).join(' ');

/** A mapfile serving `table` (geometry column `wkb_geometry`, key `ogc_fid`) as WMS and WFS layer `name`. */
export function mapfile(dir: string, databaseUrl: string, table: string, name: string): string {
  return `MAP
  NAME "bench"
  EXTENT -180 -90 180 90
  SIZE 1024 768
  MAXSIZE 4096
  IMAGETYPE png
  PROJECTION "init=epsg:4326" END
  CONFIG "MS_ERRORFILE" "${join(dir, 'mapserver.log')}"
  OUTPUTFORMAT
    NAME "png"
    DRIVER AGG/PNG
    MIMETYPE "image/png"
    IMAGEMODE RGBA
    EXTENSION "png"
    TRANSPARENT ON
  END
  OUTPUTFORMAT
    NAME "geojson"
    DRIVER "OGR/GEOJSON"
    MIMETYPE "application/json"
    FORMATOPTION "STORAGE=stream"
    FORMATOPTION "FORM=SIMPLE"
  END
  WEB
    METADATA
      "ows_title" "bench"
      "ows_onlineresource" "/mapserv?"
      "ows_srs" "EPSG:4326 EPSG:3857 EPSG:25832"
      "ows_enable_request" "*"
      "wfs_getfeature_formatlist" "geojson"
      "wfs_maxfeatures" "1000000"
    END
  END
  LAYER
    NAME "${name}"
    TYPE POLYGON
    STATUS ON
    CONNECTIONTYPE POSTGIS
    CONNECTION "${connection(databaseUrl)}"
    DATA "wkb_geometry from ${table} using unique ogc_fid using srid=4326"
    PROJECTION "init=epsg:4326" END
    METADATA
      "ows_title" "${name}"
      "gml_include_items" "all"
      "gml_featureid" "ogc_fid"
      "wfs_enable_request" "*"
    END
    CLASS
      STYLE
        COLOR ${hex(POLYGON_STYLE.fill)}
        OPACITY ${Math.round(POLYGON_STYLE.fillOpacity * 100)}
      END
      STYLE
        OUTLINECOLOR ${hex(POLYGON_STYLE.stroke)}
        WIDTH ${POLYGON_STYLE.strokeWidth}
      END
    END
  END
END
`;
}

/**
 * Starts lighttpd on a free loopback port with `processes` MapServer FastCGI processes (one per
 * core, as production setups size them) serving `mapfilePath` at `/mapserv`.
 */
export async function startMapServer(dir: string, mapfilePath: string, processes = 2): Promise<MapServerPeer> {
  const port = await freePort();
  // MapServer 8 reads a configuration file first; it names the one mapfile served.
  const msConfig = join(dir, 'mapserver.conf');
  await writeFile(msConfig, `CONFIG\n  ENV\n    MS_MAPFILE "${mapfilePath}"\n  END\nEND\n`);
  const conf = join(dir, 'lighttpd.conf');
  await writeFile(
    conf,
    `server.document-root = "${dir}"
server.port = ${port}
server.bind = "127.0.0.1"
server.errorlog = "${join(dir, 'lighttpd.log')}"
server.max-keep-alive-requests = 10000
server.modules = ("mod_fastcgi")
fastcgi.server = ("/mapserv" => ((
  "bin-path" => "/usr/lib/cgi-bin/mapserv",
  "socket" => "${join(dir, 'mapserv.sock')}",
  "max-procs" => ${processes},
  "check-local" => "disable",
  "bin-environment" => ("MAPSERVER_CONFIG_FILE" => "${msConfig}")
)))
`,
  );
  // In a process group of its own, so stop() ends lighttpd and the FastCGI processes it started together.
  const child: ChildProcess = spawn('/usr/sbin/lighttpd', ['-D', '-f', conf], {
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  let err = '';
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const url = `http://127.0.0.1:${port}/mapserv`;
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`lighttpd did not start: ${err}`);
    try {
      const res = await fetch(`${url}?SERVICE=WMS&REQUEST=GetCapabilities&VERSION=1.3.0`);
      if (res.ok) {
        await res.arrayBuffer();
        break;
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    async stop() {
      if (child.exitCode === null) {
        const exited = once(child, 'exit');
        process.kill(-child.pid!, 'SIGTERM');
        await exited;
      }
      // lighttpd may have restarted a FastCGI process while the group was ending: end what is left.
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // the group is gone
      }
      // The FastCGI processes inherited lighttpd's stderr: close this end, whatever they still do.
      child.stderr?.destroy();
    },
  };
}
