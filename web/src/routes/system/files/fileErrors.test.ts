import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../../api/errors';
import i18n from '../../../i18n';
import { deleteProblem, uploadProblem } from './fileErrors';

const t = i18n.getFixedT('en', 'systemTools');

afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('why a file action was refused', () => {
  it('names the file and the quota when an upload does not fit', () => {
    const error = new ApiError(409, 40900, 'storage quota exceeded', { quota_bytes: 5242880 });
    expect(uploadProblem(t, 'a.pdf', error)).toBe(
      'a.pdf was not uploaded: it would exceed the storage quota of 5 MB. Delete files to make room.',
    );
  });

  it('says a file is too large on 413, and gives the reason otherwise', () => {
    expect(uploadProblem(t, 'big.iso', new ApiError(413, 41300, 'too large', null))).toBe(
      'big.iso was not uploaded: it is larger than one file may be.',
    );
    expect(uploadProblem(t, 'x', new ApiError(0, 0, 'network error', null))).toMatch(
      /^x was not uploaded: /,
    );
  });

  it('says a held file is attached to a running request', () => {
    const held = new ApiError(409, 40900, 'the file is attached to a live request', null);
    expect(deleteProblem(t, 'contract.pdf', held)).toMatch(
      /^contract\.pdf was not deleted: it is attached to an approval request that is still running/,
    );
    expect(deleteProblem(t, 'x', new ApiError(404, 40400, 'file not found', null))).toMatch(
      /^x was not deleted: /,
    );
  });

  it('reads in Simplified Chinese', () => {
    const zh = i18n.getFixedT('zh-CN', 'systemTools');
    const held = new ApiError(409, 40900, 'held', null);
    expect(deleteProblem(zh, '合同.pdf', held)).toBe(
      '合同.pdf 未删除：它附在一个仍在进行中的审批申请上，该申请结束后才能删除。',
    );
  });
});
