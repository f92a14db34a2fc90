// Events, from core/v1 or events.k8s.io/v1 (whose fields are renamed), as printEvent.
import type { KubeObject } from '../types.ts';
import { ageSince } from './human-duration.ts';
import { int, rec, str } from './cell-format.ts';
import { NAME_COLUMN, col, type Printer } from './table-types.ts';

type Obj = Record<string, unknown>;

/** One view over both Event versions. */
function view(o: KubeObject): { involved: Obj; message: string; first: unknown; last: unknown; count: number; source: Obj; eventTime: unknown; series: Obj | undefined } {
  const v1 = o.apiVersion !== 'events.k8s.io/v1';
  const series = o.series ? rec(o.series) : undefined;
  return v1
    ? { involved: rec(o.involvedObject), message: str(o.message), first: o.firstTimestamp, last: o.lastTimestamp, count: int(o.count), source: rec(o.source), eventTime: o.eventTime, series }
    : { involved: rec(o.regarding), message: str(o.note), first: o.deprecatedFirstTimestamp, last: o.deprecatedLastTimestamp, count: int(o.deprecatedCount), source: rec(o.deprecatedSource), eventTime: o.eventTime, series };
}

export const eventPrinter: Printer = {
  columns: [
    col('Last Seen', 'string', 'deprecatedLastTimestamp is the deprecated field assuring backward compatibility with core.v1 Event type.'),
    col('Type', 'string', 'type is the type of this event (Normal, Warning), new types could be added in the future. It is machine-readable. This field cannot be empty for new Events.'),
    col('Reason', 'string', 'reason is why the action was taken. It is human-readable. This field cannot be empty for new Events and it can have at most 128 characters.'),
    col('Object', 'string', "regarding contains the object this Event is about. In most cases it's an Object reporting controller implements, e.g. ReplicaSetController implements ReplicaSets and this event is emitted because it acts on some changes in a ReplicaSet object."),
    col('Subobject', 'string', 'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement, such as desiredState.manifest.containers[2].', 1),
    col('Source', 'string', 'deprecatedSource is the deprecated field assuring backward compatibility with core.v1 Event type.', 1),
    col('Message', 'string', 'note is a human-readable description of the status of this operation. Maximal length of the note is 1kB, but libraries should be prepared to handle values up to 64kB.'),
    col('First Seen', 'string', 'deprecatedFirstTimestamp is the deprecated field assuring backward compatibility with core.v1 Event type.', 1),
    col('Count', 'string', 'deprecatedCount is the deprecated field assuring backward compatibility with core.v1 Event type.', 1),
    { ...NAME_COLUMN, priority: 1 },
  ],
  cells(o, now) {
    const e = view(o);
    const first = e.first ? ageSince(e.first, now) : ageSince(e.eventTime, now);
    let last = e.last ? ageSince(e.last, now) : first;
    let count = e.count;
    if (e.series) {
      last = ageSince(e.series.lastObservedTime, now);
      count = int(e.series.count);
    } else if (count === 0) {
      count = 1; // singleton events carry no count in the new API
    }
    const kind = str(e.involved.kind).toLowerCase();
    const target = str(e.involved.name) ? `${kind}/${str(e.involved.name)}` : kind;
    const component = str(e.source.component) || str(o.reportingController) || str(o.reportingComponent);
    const instance = str(e.source.host) || str(o.reportingInstance);
    const source = instance ? `${component}, ${instance}` : component;
    return [last, str(o.type), str(o.reason), target, str(e.involved.fieldPath), source, e.message.trim(), first, count, o.metadata.name ?? ''];
  },
};
