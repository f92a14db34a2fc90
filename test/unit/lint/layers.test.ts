// lint/layers.js: the import rules of src/ (docs/architecture.md, "Layers"). Each case is
// an import a file of one layer makes; the outward ones must be reported.
import { describe, it } from 'node:test';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RuleTester } from 'eslint';
import { layersRule } from '../../../lint/layers.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
RuleTester.describe = describe;
RuleTester.it = it;
RuleTester.itOnly = it.only;

const at = (file: string, code: string) => ({ filename: path.join(ROOT, file), code });

new RuleTester({ languageOptions: { ecmaVersion: 2022, sourceType: 'module' } }).run('layers', layersRule, {
  valid: [
    at('src/gateway/handler.ts', "import { x } from '../tenants/tenant-crd.ts';"),
    at('src/gateway/authn/authenticate.ts', "import { x } from '../../core/api-error.ts';"),
    at('src/controllers/onboarding/reconcile-tenant.ts', "import { x } from '../runtime/controller.ts';"),
    at('src/controllers/onboarding/reconcile-tenant.ts', "import { x } from '../../tenants/provision.ts';"),
    at('src/controllers/propagation/x.ts', "import { y } from './y.ts';"),
    at('src/tenants/provision.ts', "import { x } from '../kube/object-client.ts';"),
    at('src/apiserver/server.ts', "import { x } from '../pki/certificates.ts';"),
    at('src/cli/main.ts', "import { x } from '../gateway/server.ts';"),
    at('src/warren.ts', "import { x } from './controllers/onboarding/start-onboarding-controller.ts';"),
    at('src/core/types.ts', "import { x } from 'yaml';"),
    at('src/apiserver/simulator/x.ts', "import { x } from '../../workqueue/work-queue.ts';"),
    at('src/controllers/runtime/x.ts', "import { x } from '../../workqueue/work-queue.ts';"),
    at('src/workqueue/work-queue.ts', "import { x } from '../core/backoff.ts';"),
    at('src/gateway/server.ts', "import { x } from '../console/server/console-routes.ts';"),
    at('console/web/live.ts', "import { x } from '../../src/console/view/state-delta.ts';"),
    at('console/web/main.ts', "import { x } from './api.ts';"),
    at('src/console/server/tenant-actions.ts', "import { x } from '../../tenants/tenant-kubeconfig.ts';"),
  ],
  invalid: [
    at('src/gateway/portal/portal-routes.ts', "import { x } from '../../controllers/onboarding/provision.ts';"),
    at('src/controllers/onboarding/x.ts', "import { x } from '../../gateway/tenants/tenant-crd.ts';"),
    at('src/controllers/onboarding/x.ts', "import { x } from '../propagation/engine-context.ts';"),
    at('src/controllers/runtime/x.ts', "import { x } from '../clusters/quantity.ts';"),
    at('src/tenants/x.ts', "import { x } from '../gateway/tenant-directory.ts';"),
    at('src/tenants/x.ts', "import { x } from '../controllers/onboarding/reasons.ts';"),
    at('src/core/x.ts', "export { x } from '../kube/upstream.ts';"),
    at('src/apiserver/x.ts', "const m = import('../gateway/server.ts');"),
    at('src/apiserver/x.ts', "export * from '../tenants/tenant-crd.ts';"),
    at('src/kube/x.ts', "import { x } from '../warren.ts';"),
    at('src/apiserver/simulator/x.ts', "import { x } from '../../controllers/runtime/workers.ts';"),
    at('src/workqueue/x.ts', "import { x } from '../kube/informer.ts';"),
    at('src/core/x.ts', "import { x } from '../workqueue/work-queue.ts';"),
    at('src/console/server/x.ts', "import { x } from '../../gateway/identity.ts';"),
    at('console/web/x.ts', "import { x } from '../../src/console/server/console-routes.ts';"),
    at('console/web/x.ts', "import { x } from '../../src/core/types.ts';"),
    at('src/console/server/x.ts', "import { x } from '../../up/wait-for-tenants.ts';"),
    at('src/gateway/server.ts', "import { x } from '../warren.ts';"),
    at('src/controllers/onboarding/x.ts', "import { x } from '../../console/view/console-types.ts';"),
  ].map((c) => ({ ...c, errors: [{ messageId: 'outward' as const }] })),
});
