// Scale-out without shared state (issue 22): N servers, each with its own database holding the same deterministic
// population, behind one L7 load balancer. A session lives on the replica that created it, and its id says which
// (`r1.<random>`, session-id.ts), so the balancer routes by the id: the session's FHIR base and gym routes by path, MCP
// by its `x-ehr-gym-session` header or `?session=`. Session creation and the task catalogue may go to any replica;
// everything else (the shared /fhir base, whose writes every client must see, the operator's session list, the
// OpenEnv routes) goes to the first replica, so what is shared stays in one place. This writes that rule as an nginx configuration (Debian's `nginx` package); the
// shipped deploy/nginx/ehr-gym.conf is its output for two replicas, and bench/scale.ts runs it.
import { REPLICA_ID } from './session-id.ts';

export interface Replica {
  /** The id the replica was started with (`serve --replica-id`). */
  id: string;
  /** host:port it listens on. */
  address: string;
}

export interface NginxOptions {
  /** host:port nginx listens on. */
  listen: string;
  replicas: Replica[];
  /** Files nginx writes (pid, temp bodies) go under its prefix (`nginx -p DIR`); default: relative to it. */
  workerProcesses?: number | 'auto';
}

/** A complete nginx.conf: run with `nginx -p PREFIX_DIR -c /abs/path/to/this.conf` (no root needed above port 1024). */
export function nginxConfig(options: NginxOptions): string {
  if (options.replicas.length === 0) throw new Error('at least one replica');
  for (const r of options.replicas) if (!REPLICA_ID.test(r.id)) throw new Error(`replica id '${r.id}' must be 1-16 lower-case letters or digits`);
  const upstream = (name: string, addresses: string[]) =>
    [`  upstream ${name} {`, ...addresses.map((a) => `    server ${a};`), '    keepalive 64;', '  }'].join('\n');
  // One line per known replica, so an id naming no replica goes to any replica (which answers 404 for it) instead of
  // nginx failing to resolve an upstream that does not exist.
  const byPath = options.replicas.map((r) => `    "~^/+(?:fhir/+_session|gym/+sessions)/+${r.id}\\." replica_${r.id};`);
  const byHeader = options.replicas.map((r) => `    "~^${r.id}\\." replica_${r.id};`);
  return `# ehr-gym behind nginx: ${options.replicas.length} replica(s), each its own \`ehr-gym serve --replica-id ID --db FILE\`.
# Written by server/gym/replicas.ts (nginxConfig). Start: nginx -p PREFIX_DIR -c /absolute/path/to/this/file
# (PREFIX_DIR holds the pid file and temporary bodies). Start each replica with --base-url set to the URL clients use
# for nginx, so the links in answers point here, and with --trust-proxy 127.0.0.1 so per-client limits see the client.
worker_processes ${options.workerProcesses ?? 'auto'};
pid ehr-gym-nginx.pid;
error_log stderr warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path client_body;
  proxy_temp_path proxy;
  fastcgi_temp_path fastcgi;
  uwsgi_temp_path uwsgi;
  scgi_temp_path scgi;
  client_max_body_size 32m;

${options.replicas.map((r) => upstream(`replica_${r.id}`, [r.address])).join('\n')}
${upstream('any_replica', options.replicas.map((r) => r.address))}

  # The replica a request belongs to: from the session id in its path, else in its MCP session header or parameter.
  map $uri $ehr_gym_by_path {
${byPath.join('\n')}
    default "";
  }
  map $http_x_ehr_gym_session $ehr_gym_by_header {
${byHeader.join('\n')}
    default "";
  }
  map $arg_session $ehr_gym_by_arg {
${byHeader.join('\n')}
    default "";
  }
  # New sessions and the catalogue spread over every replica; what is shared stays on the first.
  map $request_method:$uri $ehr_gym_by_kind {
    "~^POST:/+gym/+sessions/*$" any_replica;
    "~^GET:/+gym/+tasks" any_replica;
    default replica_${options.replicas[0].id};
  }
  map "$ehr_gym_by_path,$ehr_gym_by_header,$ehr_gym_by_arg,$ehr_gym_by_kind" $ehr_gym_replica {
    "~^,*(?<first>replica_[a-z0-9]+|any_replica)" $first;
    default any_replica;
  }

  server {
    listen ${options.listen};
    location / {
      proxy_pass http://$ehr_gym_replica;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      # Rows of $run stream; agents wait on long requests up to the server's own time budget.
      proxy_buffering off;
      proxy_read_timeout 120s;
    }
  }
}
`;
}
