export {
  type Ended,
  overTheCap,
  RawConnection,
  statusesIn,
  trickleBody,
  trickleHeaders,
} from './slow-clients.js';
