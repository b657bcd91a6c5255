// fmt, compiled once for the whole project. In its header-only mode every file that formats
// compiles fmt's formatting functions again (about 2 s of CPU a file at -O3; docs/design.md §7),
// and the distribution ships the compiled fmt as a shared library only, which would bring a second
// C++ runtime into binaries that link theirs statically (cmake/portable.cmake). Without
// FMT_HEADER_ONLY, format-inl.h defines those functions here, not inline, and the templates that
// format.h declares `extern` are instantiated here for char, the only character type we format.
#include <fmt/format-inl.h>
#include <fmt/format.h>

FMT_BEGIN_NAMESPACE
namespace detail {
template auto thousands_sep_impl<char>(locale_ref) -> thousands_sep_result<char>;
template auto decimal_point_impl<char>(locale_ref) -> char;
// Called from format.h's float formatting; instantiated here so that no file depends on another
// having instantiated them implicitly.
template auto dragonbox::to_decimal<float>(float) noexcept -> dragonbox::decimal_fp<float>;
template auto dragonbox::to_decimal<double>(double) noexcept -> dragonbox::decimal_fp<double>;
}  // namespace detail
FMT_END_NAMESPACE
