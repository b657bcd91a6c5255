// Facts about this build, for result files.
#pragma once

namespace sb {

extern const char* const kGitCommit;  // the commit built, with "-dirty" for uncommitted changes

}  // namespace sb
