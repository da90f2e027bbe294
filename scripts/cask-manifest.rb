# ruby scripts/cask-manifest.rb CASK.rb: what a Homebrew cask names, one
# "stanza value" a line (version, url, sha256, and each file it installs),
# for scripts/check-packages to compare with the release's files.
#
# The cask is evaluated, not searched with patterns: its URLs interpolate
# #{version}, and each url is paired with the sha256 of its own on_* block.
# Homebrew is not needed: the stanzas are recorded by the stubs below, and
# the ones that only matter on a Mac (postflight, livecheck) are ignored.

class CaskRecorder
  attr_reader :lines

  def initialize
    @lines = []
  end

  def version(value = nil)
    return @version if value.nil?

    @version = value
    @lines << ["version", value]
  end

  def url(value, **)
    @lines << ["url", value]
  end

  def sha256(value)
    @lines << ["sha256", value]
  end

  %i[binary manpage bash_completion zsh_completion fish_completion].each do |stanza|
    define_method(stanza) { |path, **| @lines << [stanza.to_s, path] }
  end

  %i[on_macos on_linux on_intel on_arm].each do |platform|
    define_method(platform) { |&block| instance_eval(&block) }
  end

  def method_missing(*) end

  def respond_to_missing?(*)
    true
  end
end

def cask(name, &block)
  recorder = CaskRecorder.new
  recorder.instance_eval(&block)
  puts "name #{name}"
  recorder.lines.each { |stanza, value| puts "#{stanza} #{value}" }
end

load ARGV.fetch(0)
