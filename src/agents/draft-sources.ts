// What an agent's session adds to a handoff drafted at compaction time, beyond git.
//
// This is the one place where transcript extraction plugs in: today it only records
// where the transcript is (under References) and whether it could be found. A transcript
// reader (one per agent format) should fill `sections` here with what git cannot know
// (decisions, open questions, next steps), already redacted.
import { stat } from 'node:fs/promises';
import os from 'node:os';
import type { SectionLines } from '../handoff/draft-additions.js';
import { code, inline } from '../store/markdown.js';
import { homeShort } from '../command/output.js';
import { TITLE } from '../store/sections.js';

export interface DraftSources {
  /** Lines to append, by section title (store/sections.ts). */
  sections: SectionLines;
  /** One line each, printed as warnings by the hook. */
  warnings: string[];
  /** The transcript exists and is a file: worth handing to the transcript readers. */
  readable?: boolean;
}

export async function draftSourcesFor(transcriptPath: string | undefined, agent: string): Promise<DraftSources> {
  if (!transcriptPath) {
    return {
      sections: { [TITLE.references]: [`- ${agent} sent no transcript path; this draft comes from git alone.`] },
      warnings: [`${agent} sent no transcript_path; the handoff is drafted from git alone`],
    };
  }
  const shown = code(inline(homeShort(transcriptPath, os.homedir())));
  try {
    const info = await stat(transcriptPath);
    if (!info.isFile()) throw Object.assign(new Error('not a file'), { code: 'ENOTFILE' });
    return {
      sections: { [TITLE.references]: [`- ${agent} session transcript: ${shown}`] },
      warnings: [],
      readable: true,
    };
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : 'cannot be read';
    return {
      sections: {
        [TITLE.references]: [`- ${agent} session transcript: ${shown} (it ${why} at the time of this handoff)`],
      },
      warnings: [`the transcript ${transcriptPath} ${why}; the handoff is drafted from git alone`],
    };
  }
}
