import { createRedis, createWorkerRedis } from './connection.js';

describe('Redis clients from a URL', () => {
  it('take host, port, credentials, db number and TLS from the URL', () => {
    const redis = createRedis('rediss://app%40x:p%3Ass@[::1]:6390/3');
    const worker = createWorkerRedis('redis://:secret@127.0.0.1:6391/2');
    try {
      expect(redis.options).toMatchObject({
        host: '::1',
        port: 6390,
        username: 'app@x',
        password: 'p:ss',
        db: 3,
        tls: true,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 1,
      });
      expect(worker.options).toMatchObject({
        host: '127.0.0.1',
        port: 6391,
        password: 'secret',
        db: 2,
        maxRetriesPerRequest: null,
      });
      expect(worker.options.tls).toBeUndefined();
    } finally {
      redis.disconnect();
      worker.disconnect();
    }
  });
});
