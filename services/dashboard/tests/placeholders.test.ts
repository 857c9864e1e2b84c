import { TEMPLATE_PLACEHOLDERS } from '@leadhook/contracts';
import { TEMPLATE_PLACEHOLDERS as shown } from '../src/ui/placeholders.js';

// The playbook editor lists the placeholders a template may use; the API's list is
// the truth (a name it does not know is refused with 422 unknown_placeholder).
it('the playbook editor lists exactly the placeholders the API accepts', () => {
  expect([...shown]).toEqual([...TEMPLATE_PLACEHOLDERS]);
});
