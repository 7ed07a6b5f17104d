import { describe, expect, it } from 'vitest';
import { annotation, group } from './github-workflow-commands.js';

describe('workflow commands', () => {
  it('escape the message and the properties as the Actions runner reads them', () => {
    expect(annotation('error', '50% off:\nline two', { file: 'a,b.yaml', line: 3, col: 5, title: 'parley: x' })).toBe(
      '::error file=a%2Cb.yaml,line=3,col=5,title=parley%3A x::50%25 off:%0Aline two',
    );
    expect(annotation('warning', 'plain')).toBe('::warning::plain');
  });

  it('wrap lines in a group', () => {
    expect(group('title', ['a', 'b'])).toEqual(['::group::title', 'a', 'b', '::endgroup::']);
  });
});
