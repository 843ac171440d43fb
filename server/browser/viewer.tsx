import start from 'virtual:werkbank-viewer';

void start(document.getElementById('root')!);
