import { describe, expect, it } from 'vitest';
import { parseSocketTable } from './host-sockets.js';

describe('parseSocketTable', () => {
  it('keeps listening file-system sockets only: not abstract, unnamed or connected ones', () => {
    const table = [
      'Num       RefCount Protocol Flags    Type St Inode Path',
      '00000000c7c49dcf: 00000002 00000000 00010000 0001 01 75283 /tmp/.s.PGSQL.39259',
      '00000000c7c49dd0: 00000002 00000000 00010000 0001 01 75284 @/tmp/.X11-unix/X0',
      '00000000c7c49dd1: 00000003 00000000 00000000 0001 03 75285 /run/connected.sock',
      '00000000fd5ba150: 00000003 00000000 00000000 0001 03 103102',
      '00000000c7c49dd2: 00000002 00000000 00010000 0001 01 75286 /srv/app/my app.sock',
      '00000000c7c49dd3: 00000002 00000000 00010000 0001 01 75287 /tmp/.s.PGSQL.39259',
    ].join('\n');
    expect(parseSocketTable(table)).toEqual(['/tmp/.s.PGSQL.39259', '/srv/app/my app.sock']);
  });

  it('an unreadable table lists nothing', () => {
    expect(parseSocketTable('')).toEqual([]);
  });
});
