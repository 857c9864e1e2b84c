import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  loadConfig,
  SECRET_SETTING_NAMES,
  SETTING_NAMES,
  type SettingName,
} from '@leadhook/config';
import { parse, parseAllDocuments } from 'yaml';

// No cluster runs in CI: this reads every manifest of infra/k8s and checks it
// against the code it deploys (settings, ports, probes, entry points).
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const K8S = join(ROOT, 'infra', 'k8s');

interface Probe {
  httpGet?: { path: string; port: string | number };
}
interface Container {
  name: string;
  image: string;
  command?: string[];
  ports?: { name?: string; containerPort: number }[];
  env?: { name: string; value?: string }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  lifecycle?: { preStop?: { sleep?: { seconds: number } } };
  resources?: {
    requests?: { cpu?: string; memory?: string };
    limits?: { cpu?: string; memory?: string };
  };
  securityContext?: {
    readOnlyRootFilesystem?: boolean;
    allowPrivilegeEscalation?: boolean;
    capabilities?: { drop?: string[] };
  };
}
interface PodSpec {
  containers: Container[];
  initContainers?: Container[];
  restartPolicy?: string;
  terminationGracePeriodSeconds?: number;
  securityContext?: { runAsNonRoot?: boolean; runAsUser?: number };
}
interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  spec?: {
    replicas?: number;
    selector?: Record<string, string> | { matchLabels: Record<string, string> };
    template?: {
      metadata: { labels: Record<string, string>; annotations?: Record<string, string> };
      spec: PodSpec;
    };
    ports?: { targetPort: string | number }[];
    scaleTargetRef?: { kind: string; name: string };
    maxUnavailable?: number | string;
    minAvailable?: number | string;
  };
}

const files = readdirSync(K8S).filter((f) => f.endsWith('.yaml'));
const manifests: (Manifest & { file: string })[] = files
  .filter((f) => f !== 'kustomization.yaml')
  .flatMap((file) =>
    parseAllDocuments(readFileSync(join(K8S, file), 'utf8')).map((doc) => {
      if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors[0]?.message}`);
      return { ...(doc.toJS() as Manifest), file };
    }),
  );
const ofKind = (kind: string) => manifests.filter((m) => m.kind === kind);
const one = (kind: string, name: string) => {
  const found = ofKind(kind).find((m) => m.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} in infra/k8s`);
  return found;
};

type ProcessName = 'intake' | 'api' | 'playbook-worker' | 'webhook-worker';

/**
 * Each process's public port and its operators' port (probes, /metrics), as the
 * Config keys that hold them: intake's and the api's internal ports; a worker's
 * one port is both.
 */
const PROCESSES: ReadonlyArray<{
  name: ProcessName;
  port: 'intakePort' | 'apiPort' | 'playbookWorkerPort' | 'webhookWorkerPort';
  operatorPort?: 'intakeInternalPort' | 'apiInternalPort';
  service: boolean;
}> = [
  { name: 'intake', port: 'intakePort', operatorPort: 'intakeInternalPort', service: true },
  { name: 'api', port: 'apiPort', operatorPort: 'apiInternalPort', service: true },
  { name: 'playbook-worker', port: 'playbookWorkerPort', service: false },
  { name: 'webhook-worker', port: 'webhookWorkerPort', service: false },
];

/**
 * Settings that only some processes use, set on those processes' containers
 * (`env`) rather than in the ConfigMap; the other processes leave them to their
 * default. Every other setting reaches every process from the ConfigMap or, for
 * the credentials (SECRET_SETTING_NAMES), the Secret.
 */
const PER_PROCESS_SETTINGS: Partial<Record<SettingName, ReadonlyArray<ProcessName>>> = {
  // 1 behind the ingress or load balancer, on the two processes it routes to.
  TRUST_PROXY: ['intake', 'api'],
};

const MIGRATE_COMMAND = ['node', 'scripts/dist/migrate.js'];

/** The environment a container gets: its envFrom sources, then its own env. */
function environmentOf(container: Container): Record<string, string> {
  const env: Record<string, string> = {};
  for (const from of container.envFrom ?? []) {
    if (from.configMapRef) Object.assign(env, one('ConfigMap', from.configMapRef.name).data);
    if (from.secretRef) Object.assign(env, one('Secret', from.secretRef.name).stringData);
  }
  for (const { name, value } of container.env ?? []) env[name] = String(value ?? '');
  return env;
}

function selects(selector: Record<string, string>, labels: Record<string, string>): boolean {
  return Object.entries(selector).every(([k, v]) => labels[k] === v);
}

function matchLabelsOf(m: Manifest): Record<string, string> {
  const selector = m.spec?.selector;
  if (!selector || typeof selector.matchLabels !== 'object') {
    throw new Error(`${m.kind} ${m.metadata.name} has no selector.matchLabels`);
  }
  return selector.matchLabels as Record<string, string>;
}

function podOf(m: Manifest): PodSpec {
  const pod = m.spec?.template?.spec;
  if (!pod) throw new Error(`${m.kind} ${m.metadata.name} has no pod template`);
  return pod;
}

const allPods = () =>
  [...ofKind('Deployment'), ...ofKind('Job')].map((m) => ({ m, pod: podOf(m) }));

describe('infra/k8s', () => {
  it('lists every manifest in kustomization.yaml, and only those', () => {
    const kustomization = parse(readFileSync(join(K8S, 'kustomization.yaml'), 'utf8')) as {
      resources: string[];
    };
    expect([...kustomization.resources].sort()).toEqual(
      files.filter((f) => f !== 'kustomization.yaml').sort(),
    );
  });

  it('has a Deployment per process and nothing else deployed', () => {
    expect(
      ofKind('Deployment')
        .map((d) => d.metadata.name)
        .sort(),
    ).toEqual(PROCESSES.map((p) => p.name).sort());
    for (const m of manifests) {
      expect(m.apiVersion).toBeTruthy();
      expect(m.metadata.name).toBeTruthy();
    }
  });

  it('keeps the credentials in the Secret, the rest but PER_PROCESS_SETTINGS in the ConfigMap', () => {
    const secretKeys = ofKind('Secret').flatMap((s) => Object.keys(s.stringData ?? {}));
    const configKeys = ofKind('ConfigMap').flatMap((c) => Object.keys(c.data ?? {}));
    expect(secretKeys.sort()).toEqual([...SECRET_SETTING_NAMES].sort());
    expect(configKeys.sort()).toEqual(
      SETTING_NAMES.filter(
        (n) => !SECRET_SETTING_NAMES.includes(n) && PER_PROCESS_SETTINGS[n] === undefined,
      ).sort(),
    );
  });

  describe.each(PROCESSES)('Deployment $name', ({ name, port, operatorPort, service }) => {
    const deployment = one('Deployment', name);
    const pod = podOf(deployment);
    const main = pod.containers.find((c) => c.name === name) as Container;

    it('runs its service from the one image', () => {
      expect(pod.containers).toHaveLength(1);
      expect(main.command).toEqual(['node', `services/${name}/dist/main.js`]);
      expect(existsSync(join(ROOT, 'services', name, 'src', 'main.ts'))).toBe(true);
      expect(main.image).toBe(podOf(one('Job', 'leadhook-migrate')).containers[0]?.image);
    });

    it('sets only real settings, all of which packages/config accepts', () => {
      const env = environmentOf(main);
      const known: readonly string[] = SETTING_NAMES;
      expect(Object.keys(env).filter((n) => !known.includes(n))).toEqual([]);
      expect(() => loadConfig(env)).not.toThrow();
    });

    it("gets every setting but those only another process's container sets", () => {
      const env = environmentOf(main);
      expect(SETTING_NAMES.filter((n) => !(n in env))).toEqual(
        SETTING_NAMES.filter((n) => !(PER_PROCESS_SETTINGS[n] ?? [name]).includes(name)),
      );
    });

    it("probes /healthz (liveness) and /readyz (readiness), and is scraped, on its operators' port", () => {
      const config = loadConfig(environmentOf(main));
      const http = main.ports?.find((p) => p.name === 'http');
      expect(http?.containerPort).toBe(config[port]);
      // The internal port where the process has one: a flood filling the public
      // port's connections must not fail the probes (and restart the pod).
      const listens = config[operatorPort ?? port];
      if (listens !== config[port]) {
        expect(main.ports?.find((p) => p.name === 'internal')?.containerPort).toBe(listens);
      }
      const annotations = deployment.spec?.template?.metadata.annotations ?? {};
      expect(annotations['prometheus.io/scrape']).toBe('true');
      expect(annotations['prometheus.io/port']).toBe(String(listens));
      expect(annotations['prometheus.io/path']).toBe('/metrics');
      const portOf = (probe: Probe | undefined) => {
        const given = probe?.httpGet?.port;
        return typeof given === 'string'
          ? main.ports?.find((p) => p.name === given)?.containerPort
          : given;
      };
      expect(main.livenessProbe?.httpGet?.path).toBe('/healthz');
      expect(portOf(main.livenessProbe)).toBe(listens);
      expect(main.readinessProbe?.httpGet?.path).toBe('/readyz');
      expect(portOf(main.readinessProbe)).toBe(listens);
      if (main.startupProbe) {
        expect(main.startupProbe.httpGet?.path).toBe('/healthz');
        expect(portOf(main.startupProbe)).toBe(listens);
      }
    });

    it('gives the process time to drain: grace period > preStop + SHUTDOWN_TIMEOUT_MS', () => {
      const { shutdownTimeoutMs } = loadConfig(environmentOf(main));
      const preStop = main.lifecycle?.preStop?.sleep?.seconds ?? 0;
      expect(pod.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(
        preStop + shutdownTimeoutMs / 1000 + 2,
      );
    });

    it('selects its own pods, and has exactly one PodDisruptionBudget', () => {
      const labels = deployment.spec?.template?.metadata.labels ?? {};
      expect(selects(matchLabelsOf(deployment), labels)).toBe(true);
      const pdbs = ofKind('PodDisruptionBudget').filter((p) => selects(matchLabelsOf(p), labels));
      expect(pdbs).toHaveLength(1);
    });

    it(
      service ? 'is reachable through a Service' : 'has no Service (health and metrics only)',
      () => {
        const labels = deployment.spec?.template?.metadata.labels ?? {};
        const services = ofKind('Service').filter((s) =>
          selects(s.spec?.selector as Record<string, string>, labels),
        );
        expect(services).toHaveLength(service ? 1 : 0);
        // Only the public port: the internal one serves metrics and readiness
        // detail, for the cluster's own probes and Prometheus.
        const publicPort = loadConfig(environmentOf(main))[port];
        for (const s of services) {
          for (const p of s.spec?.ports ?? []) {
            const target = main.ports?.find(
              (c) => c.name === p.targetPort || c.containerPort === p.targetPort,
            );
            expect(target?.containerPort).toBe(publicPort);
          }
        }
      },
    );

    it('runs nothing before it but the migrator', () => {
      for (const init of pod.initContainers ?? []) {
        expect(init.command).toEqual(MIGRATE_COMMAND);
        expect(init.image).toBe(main.image);
        // The same database as the process: its settings' sources.
        expect(init.envFrom).toEqual(main.envFrom);
      }
    });
  });

  it('has PodDisruptionBudgets only for Deployments that exist', () => {
    const podLabels = ofKind('Deployment').map((d) => d.spec?.template?.metadata.labels ?? {});
    for (const pdb of ofKind('PodDisruptionBudget')) {
      const selector = matchLabelsOf(pdb);
      expect(podLabels.some((labels) => selects(selector, labels))).toBe(true);
      expect(pdb.spec?.maxUnavailable ?? pdb.spec?.minAvailable).toBeDefined();
    }
  });

  it('scales intake with an HPA that owns its replica count', () => {
    for (const hpa of ofKind('HorizontalPodAutoscaler')) {
      const target = one('Deployment', hpa.spec?.scaleTargetRef?.name ?? '');
      expect(hpa.spec?.scaleTargetRef?.kind).toBe('Deployment');
      expect(target.spec?.replicas).toBeUndefined();
    }
  });

  it('runs the migrations in a Job, with the command docker-compose.yml uses', () => {
    const job = one('Job', 'leadhook-migrate');
    const pod = podOf(job);
    expect(pod.containers).toHaveLength(1);
    expect(pod.containers[0]?.command).toEqual(MIGRATE_COMMAND);
    expect(['Never', 'OnFailure']).toContain(pod.restartPolicy);
    expect(existsSync(join(ROOT, 'scripts', 'src', 'migrate.ts'))).toBe(true);
    const compose = parse(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8'), {
      merge: true,
    }) as { services: { migrate: { command: string[] } } };
    expect(compose.services.migrate.command).toEqual(MIGRATE_COMMAND);
    expect(Object.keys(environmentOf(pod.containers[0] as Container))).toEqual(
      expect.arrayContaining(['DATABASE_URL']),
    );
  });

  it('runs every container as non-root on a read-only root filesystem, with resources', () => {
    for (const { m, pod } of allPods()) {
      expect(pod.securityContext?.runAsNonRoot).toBe(true);
      expect(pod.securityContext?.runAsUser).toBeGreaterThan(0);
      for (const c of [...(pod.initContainers ?? []), ...pod.containers]) {
        const where = `${m.kind} ${m.metadata.name} container ${c.name}`;
        expect({ where, ...c.securityContext }).toMatchObject({
          where,
          readOnlyRootFilesystem: true,
          allowPrivilegeEscalation: false,
          capabilities: { drop: ['ALL'] },
        });
        expect({ where, ...c.resources }).toMatchObject({
          where,
          requests: { cpu: expect.any(String), memory: expect.any(String) },
          limits: { cpu: expect.any(String), memory: expect.any(String) },
        });
      }
    }
  });
});
