import { DisposableCollection, type Disposable, type MessageBus, type UrlFetcher } from '@werkbank/sdk/node';
import { MqttFeed, type MqttFeedOptions } from './mqtt-feed';
import { RestPoll } from './rest-poll';
import { LiveRunTrigger } from './live-run-trigger';
import { reasonOf, restSettings, staSettings, type StaSettings } from './live-settings';
import { eachThingsPage } from './sta-client';
import { STA_IMPORT } from './sta-import';
import { REST_IMPORT } from './rest-import';
import type { LiveTarget } from './live-watch-targets';

/** The switchboards plugin's live channel (live.ts LIVE_CHANNEL): changes and statuses of switchboards. */
export const SWITCHBOARD_LIVE_CHANNEL = 'werkbank_switchboard';
/** Where the watcher announces that a live dataset node is watched (`switchboard_id`, `node_id`, `topics`). */
export const LIVE_DATASET_CHANNEL = 'werkbank_live_dataset';
/** Fields of live UPDATEs that only runs change; they do not change what is watched (a frame's content may). */
const RUN_FIELDS = new Set(['status', 'progress', 'runinfo', 'execution', 'skipped', 'outdated']);

/** What the watcher works with (the start-up hook passes the server's; tests their own). */
export interface LiveWatcherOptions {
  net: UrlFetcher;
  bus: MessageBus;
  log(message: string): void;
  targets(): Promise<LiveTarget[]>;
  isRunning(switchboardId: number): Promise<boolean>;
  debounceMs?: number;
  /** How often everything is looked up again, datastreams included (ms). */
  refreshMs?: number;
  mqtt?: Pick<MqttFeedOptions, 'backoff' | 'connect'>;
  /** Fewest seconds between two polls of a REST origin (LIVE_REST_MIN_INTERVAL); default 0. */
  minPollSeconds?: number;
}

/** A broker connection with the nodes listening per topic, the topics confirmed and the nodes announced (with their topic counts). */
interface FeedEntry {
  feed: MqttFeed;
  listeners: Map<string, LiveTarget[]>;
  subscribed: Set<string>;
  announced: Map<number, number>;
}

/** The MQTT topic of a Datastream's Observations (OGC 18-088 §14.2); text ids are quoted as in OData. */
export const observationsTopic = (version: string, id: unknown): string =>
  `${version}/Datastreams(${typeof id === 'string' ? `'${id.replace(/'/g, "''")}'` : String(id)})/Observations`;

/**
 * Keeps switchboards with live datasets current (decision 0021): for every node of
 * `sensorthings.import` or `rest.import` on a switchboard marked automatic, it subscribes to the
 * Observations of the dataset's Datastreams on its MQTT broker, or polls the REST origin, and
 * asks for a run on news (through LiveRunTrigger). What is watched is looked up again when the
 * switchboards plugin announces a change and every `refreshMs`. Never throws: failures are logged.
 */
export class LiveDatasetWatcher implements Disposable {
  private readonly toDispose = new DisposableCollection();
  private readonly trigger: LiveRunTrigger;
  private readonly feeds = new Map<string, FeedEntry>();
  private readonly polls = new Map<string, RestPoll>();
  /** Datastream ids per STA dataset (its settings as JSON), until the next full refresh. */
  private readonly datastreams = new Map<string, unknown[]>();
  private readonly abort = new AbortController();
  private refreshing: Promise<void> = Promise.resolve();
  private refreshTimer?: NodeJS.Timeout;

  constructor(private readonly options: LiveWatcherOptions) {
    this.trigger = new LiveRunTrigger({
      bus: options.bus,
      isRunning: options.isRunning,
      log: options.log,
      debounceMs: options.debounceMs ?? 2000,
      recheckMs: 30_000,
    });
  }

  start(): void {
    this.toDispose.push(this.trigger);
    this.toDispose.push(this.options.bus.subscribe(SWITCHBOARD_LIVE_CHANNEL, (msg) => this.onLive(msg)));
    const every = setInterval(() => void this.refresh(true), this.options.refreshMs ?? 10 * 60_000);
    every.unref();
    this.toDispose.push({ dispose: () => clearInterval(every) });
    void this.refresh(true);
  }

  dispose(): void {
    this.abort.abort();
    clearTimeout(this.refreshTimer);
    this.toDispose.dispose();
    for (const { feed } of this.feeds.values()) feed.dispose();
    for (const poll of this.polls.values()) poll.dispose();
    this.feeds.clear();
    this.polls.clear();
  }

  /** Looks up what to watch again (after the refreshes before it); `full` also asks the services for their datastreams. */
  refresh(full = false): Promise<void> {
    this.refreshing = this.refreshing
      .then(() => this.reconcile(full))
      .catch((e: Error) => this.options.log(`Live datasets: ${e.message}`));
    return this.refreshing;
  }

  private onLive(msg: Record<string, unknown>): void {
    const uri = String(msg.resource_uri ?? '');
    const fields = (msg.fields ?? {}) as Record<string, unknown>;
    const sb = /^\/api\/v1\/switchboard\/(\d+)\/$/.exec(uri);
    if (sb && typeof fields.status === 'string') this.trigger.onSwitchboardStatus(Number(sb[1]), fields.status);
    const names = Object.keys(fields);
    if (msg.event === 'UPDATE' && names.length && names.every((f) => RUN_FIELDS.has(f))) return;
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => void this.refresh(), 500);
    this.refreshTimer.unref();
  }

  private async reconcile(full: boolean): Promise<void> {
    if (this.abort.signal.aborted) return;
    const targets = await this.options.targets();
    const used = new Set<string>();
    const topics = new Map<string, Map<string, LiveTarget[]>>();
    const polls = new Map<string, { target: LiveTarget; origin: string; interval: number }>();
    for (const target of targets) {
      for (const [i, fields] of target.datasets.entries()) {
        try {
          if (target.func === STA_IMPORT) await this.addTopics(topics, target, staSettings(fields), full, used);
          else if (target.func === REST_IMPORT) {
            const s = restSettings(fields);
            polls.set(`${target.nodeId}|${i}|${s.origin}|${s.update_interval}`, {
              target,
              origin: s.origin,
              interval: Math.max(s.update_interval, this.options.minPollSeconds ?? 0),
            });
          }
        } catch (e) {
          this.options.log(`Live datasets: node ${target.nodeId}: ${reasonOf(e)}`);
        }
      }
    }
    if (this.abort.signal.aborted) return;
    for (const key of this.datastreams.keys()) if (!used.has(key)) this.datastreams.delete(key);
    this.reconcileFeeds(topics);
    this.reconcilePolls(polls);
  }

  /**
   * Adds the Observations topics of an STA dataset with a broker. Its datastreams are looked up on
   * a full refresh or when new; when the service does not answer, the ids found before stay.
   */
  private async addTopics(
    topics: Map<string, Map<string, LiveTarget[]>>,
    target: LiveTarget,
    s: StaSettings,
    full: boolean,
    used: Set<string>,
  ): Promise<void> {
    if (!s.mqtt_uri) return;
    const key = JSON.stringify(s);
    // A full refresh asks each service once, however many nodes share the dataset.
    let ids = full && !used.has(key) ? undefined : this.datastreams.get(key);
    used.add(key);
    if (!ids) {
      try {
        ids = await this.datastreamIds(s);
        this.datastreams.set(key, ids);
      } catch (e) {
        ids = this.datastreams.get(key);
        if (!ids) throw e;
        this.options.log(`Live datasets: ${s.origin}: ${reasonOf(e)}; keeping the datastreams found before`);
      }
    }
    const byTopic = topics.get(s.mqtt_uri) ?? new Map<string, LiveTarget[]>();
    topics.set(s.mqtt_uri, byTopic);
    for (const id of ids) {
      const topic = observationsTopic(s.version, id);
      byTopic.set(topic, [...(byTopic.get(topic) ?? []).filter((t) => t.nodeId !== target.nodeId), target]);
    }
  }

  /** The ids of the dataset's Datastreams (the Things query with ids only). */
  private async datastreamIds(s: StaSettings): Promise<unknown[]> {
    const found: unknown[] = [];
    await eachThingsPage(this.options.net, s, 'datastreams', { signal: this.abort.signal, log: this.options.log }, (page) => {
      for (const thing of page.things)
        for (const ds of Array.isArray(thing.Datastreams) ? (thing.Datastreams as Array<Record<string, unknown>>) : [])
          if (ds['@iot.id'] !== undefined) found.push(ds['@iot.id']);
    });
    return found;
  }

  private reconcileFeeds(topics: Map<string, Map<string, LiveTarget[]>>): void {
    for (const [uri, entry] of this.feeds)
      if (!topics.has(uri)) {
        entry.feed.dispose();
        this.feeds.delete(uri);
      }
    for (const [uri, listeners] of topics) {
      let entry = this.feeds.get(uri);
      if (!entry) {
        const feed = new MqttFeed({
          uri,
          checkHost: (u, signal) => this.options.net.checkHost(u, signal),
          log: this.options.log,
          ...this.options.mqtt,
        });
        const created: FeedEntry = { feed, listeners, subscribed: new Set(), announced: new Map() };
        feed.onDidReceive((topic) => {
          for (const t of created.listeners.get(topic) ?? []) this.trigger.notify(t.switchboardId, t.nodeId);
        });
        feed.onDidSubscribe((confirmed) => {
          for (const topic of confirmed) created.subscribed.add(topic);
          this.announce(created);
        });
        this.feeds.set(uri, (entry = created));
        feed.start();
      }
      entry.listeners = listeners;
      for (const topic of entry.subscribed) if (!listeners.has(topic)) entry.subscribed.delete(topic);
      entry.feed.setTopics(new Set(listeners.keys()));
      this.announce(entry);
    }
  }

  private reconcilePolls(wanted: Map<string, { target: LiveTarget; origin: string; interval: number }>): void {
    for (const [key, poll] of this.polls)
      if (!wanted.has(key)) {
        poll.dispose();
        this.polls.delete(key);
      }
    for (const [key, { target, origin, interval }] of wanted) {
      if (this.polls.has(key)) continue;
      const poll = new RestPoll({
        net: this.options.net,
        origin,
        interval,
        log: this.options.log,
        onDidChange: () => this.trigger.notify(target.switchboardId, target.nodeId),
        onBaseline: () => this.publish(target, 1),
      });
      this.polls.set(key, poll);
      poll.start();
    }
  }

  /**
   * Announces each node once all its topics are confirmed by the broker, again only when their
   * number changes (LIVE_DATASET_CHANNEL); a node with unconfirmed topics is announced anew later.
   */
  private announce(entry: FeedEntry): void {
    const byNode = new Map<number, { target: LiveTarget; topics: string[] }>();
    for (const [topic, targets] of entry.listeners)
      for (const target of targets) {
        const node = byNode.get(target.nodeId) ?? { target, topics: [] };
        node.topics.push(topic);
        byNode.set(target.nodeId, node);
      }
    for (const nodeId of entry.announced.keys()) if (!byNode.has(nodeId)) entry.announced.delete(nodeId);
    for (const [nodeId, { target, topics }] of byNode) {
      if (!topics.every((t) => entry.subscribed.has(t))) entry.announced.delete(nodeId);
      else if (entry.announced.get(nodeId) !== topics.length) {
        entry.announced.set(nodeId, topics.length);
        this.publish(target, topics.length);
      }
    }
  }

  private publish(target: LiveTarget, topics: number): void {
    void this.options.bus
      .publish(LIVE_DATASET_CHANNEL, { switchboard_id: target.switchboardId, node_id: target.nodeId, status: 'watching', topics })
      .catch((e: Error) => this.options.log(`Live datasets: ${e.message}`));
  }
}
